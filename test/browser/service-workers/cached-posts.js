// (c) A worker that answers from its cache first, POSTs included: the Cache API refuses a POST request as a key
// (https://w3c.github.io/ServiceWorker/#cache-put: "If innerRequest's method is not `GET`, throw a TypeError"), so
// such workers key the answer by its URL, as the Workbox docs warn against
// (https://developer.chrome.com/docs/workbox/caching-strategies-overview: only GET requests can be cached). Every
// later POST to that URL gets the first one's answer, without reaching the network.
// `?rule` adds the guide's rule (docs/guides/browser.md, "Service workers"): the relay's requests are let through.
const letRelayThrough = new URL(self.location.href).searchParams.has('rule');
const CACHE = 'answers';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (letRelayThrough && new URL(request.url).pathname.startsWith('/campaign/')) return;
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
