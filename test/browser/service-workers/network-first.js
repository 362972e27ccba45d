// (b) NetworkFirst with an offline fallback for every failed request, as Workbox's "comprehensive fallbacks" recipe
// (https://developer.chrome.com/docs/workbox/managing-fallback-responses: `setCatchHandler` answers any route that
// failed) written without its `request.destination` test: the common mistake that answers a failed POST too.
// `?fallback=page` (default): the cached page, `200 text/html`; `empty`: an empty 200; `503`: a synthetic 503;
// `error`: `Response.error()`.
// `?rule`: the guide's rule first (docs/guides/browser.md, "Service workers", served as /sw-rule.js): the relay's
// requests go to the network untouched; `?rule=listener`: its fetch listener alone (a browser without static routes).
const rule = new URL(self.location.href).searchParams.get('rule');
if (rule !== null) importScripts(rule === 'listener' ? '/sw-rule-listener.js' : '/sw-rule.js');
const params = new URL(self.location.href).searchParams;
const fallback = params.get('fallback') ?? 'page';
const CACHE = 'pages';
self.addEventListener('install', (event) => event.waitUntil(caches.open(CACHE).then((cache) => cache.add('/')).then(() => self.skipWaiting())));
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const { request } = event;
  event.respondWith(
    fetch(request)
      .then(async (response) => {
        // NetworkFirst caches what the network answered (a GET: the Cache API refuses other methods).
        if (request.method === 'GET' && response.ok) await (await caches.open(CACHE)).put(request, response.clone());
        return response;
      })
      .catch(async () => {
        if (request.method === 'GET') {
          const cached = await caches.match(request);
          if (cached) return cached;
        }
        if (fallback === '503') return new Response('offline', { status: 503, headers: { 'content-type': 'text/plain' } });
        if (fallback === 'error') return Response.error();
        if (fallback === 'empty') return new Response(null, { status: 200 });
        return (await caches.match('/')) ?? Response.error();
      }),
  );
});
