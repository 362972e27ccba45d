// (a) The simplest worker a game ships: every request of its pages answered by `fetch(event.request)` (the
// "network only" strategy of https://developer.chrome.com/docs/workbox/modules/workbox-strategies, by hand).
// `?rule` adds the guide's rule (docs/guides/browser.md, "Service workers"): the relay's requests are let through.
const letRelayThrough = new URL(self.location.href).searchParams.has('rule');
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (letRelayThrough && new URL(event.request.url).pathname.startsWith('/campaign/')) return;
  event.respondWith(fetch(event.request));
});
