// (a) The simplest worker a game ships: every request of its pages answered by `fetch(event.request)` (the
// "network only" strategy of https://developer.chrome.com/docs/workbox/modules/workbox-strategies, by hand).
// `?rule`: the guide's rule first (docs/guides/browser.md, "Service workers", served as /sw-rule.js): the relay's
// requests go to the network untouched; `?rule=listener`: its fetch listener alone (a browser without static routes).
const rule = new URL(self.location.href).searchParams.get('rule');
if (rule !== null) importScripts(rule === 'listener' ? '/sw-rule-listener.js' : '/sw-rule.js');
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  event.respondWith(fetch(event.request));
});
