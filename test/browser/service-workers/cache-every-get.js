// (e) A worker that caches every GET, the common PWA set-up of one Workbox route for all GETs
// (`registerRoute(({ request }) => request.method === 'GET', new CacheFirst())`, or `new StaleWhileRevalidate()`),
// by hand as Workbox documents its strategies (https://developer.chrome.com/docs/workbox/modules/workbox-strategies):
// CacheFirst answers from the cache when it holds the request and then does not use the network at all;
// StaleWhileRevalidate answers from the cache when it can and always fetches again to update the cache for the next
// time. Both store a 200 answer (a cross-origin one too when it is CORS: only an opaque answer, status 0, needs
// CacheableResponsePlugin for CacheFirst, https://developer.chrome.com/docs/workbox/caching-resources-during-runtime),
// keyed by the request (its URL: the Cache API does not compare the `authorization` header unless `Vary` names it).
// `?strategy=cache-first` (default) or `stale-while-revalidate`.
// `?rule`: the guide's rule first (docs/guides/browser.md, "Service workers", served as /sw-rule.js): the relay's
// requests and the service's go to the network untouched; `?rule=listener`: its fetch listener alone; any other
// `?rule=name`: the variant the test serves as /sw-rule-name.js.
const params = new URL(self.location.href).searchParams;
const rule = params.get('rule');
if (rule !== null) importScripts(rule ? `/sw-rule-${rule}.js` : '/sw-rule.js');
const revalidate = params.get('strategy') === 'stale-while-revalidate';
const CACHE = 'runtime';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const cached = await cache.match(request);
      const fromNetwork = () =>
        fetch(request).then(async (response) => {
          if (response.status === 200) await cache.put(request, response.clone());
          return response;
        });
      if (!cached) return fromNetwork();
      if (revalidate) event.waitUntil(fromNetwork().catch(() => undefined));
      return cached;
    })(),
  );
});
