// (c) A worker that answers from its cache first, POSTs included: the Cache API refuses a POST request as a key
// (https://w3c.github.io/ServiceWorker/#cache-put: a method other than `GET` rejects with a TypeError; Workbox's
// strategies refuse it too, `attempt-to-cache-non-get-request`: "only 'GET' requests can be cached"), so such
// workers key the answer by its URL. Every later POST to that URL gets the first one's answer, without reaching
// the network.
// `?rule`: the guide's rule first (docs/guides/browser.md, "Service workers", served as /sw-rule.js): the relay's
// requests go to the network untouched; `?rule=listener`: its fetch listener alone (a browser without static routes).
const rule = new URL(self.location.href).searchParams.get('rule');
if (rule !== null) importScripts(rule === 'listener' ? '/sw-rule-listener.js' : '/sw-rule.js');
const CACHE = 'answers';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const { request } = event;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const cached = await cache.match(request.url);
      if (cached) return cached;
      const response = await fetch(request);
      if (response.ok) await cache.put(request.url, response.clone());
      return response;
    })(),
  );
});
