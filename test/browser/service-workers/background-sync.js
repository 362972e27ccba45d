// (d) Workbox's BackgroundSyncPlugin on a NetworkOnly POST route, by hand
// (https://developer.chrome.com/docs/workbox/modules/workbox-background-sync): a request that fails with a network
// error (its `fetchDidFail`: not a 4xx or 5xx answer) is stored, the failure goes on to the page, and the stored
// request is sent again, the same URL, headers and body, when a `sync` event comes (the browser decides when:
// even after the player left the game) or, without Background Sync, when the worker next starts. Here the test
// posts `replay` in place of the `sync` event, which a test cannot time; `stored` answers how many wait.
// `?rule`: the guide's rule first (docs/guides/browser.md, "Service workers", served as /sw-rule.js): the relay's
// requests go to the network untouched; `?rule=listener`: its fetch listener alone (a browser without static routes).
const rule = new URL(self.location.href).searchParams.get('rule');
if (rule !== null) importScripts(rule === 'listener' ? '/sw-rule-listener.js' : '/sw-rule.js');
/** The queue, in memory: the worker stays alive for the tests' few seconds (Workbox keeps it in IndexedDB). */
const queue = [];
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'POST') return;
  const stored = request.clone();
  event.respondWith(
    fetch(request).catch(async (error) => {
      queue.push({ url: stored.url, headers: [...stored.headers], body: await stored.text() });
      throw error;
    }),
  );
});
self.addEventListener('message', (event) => {
  event.waitUntil(
    (async () => {
      if (event.data === 'replay') {
        while (queue.length) {
          const { url, headers, body } = queue[0];
          await fetch(url, { method: 'POST', headers, body });
          queue.shift();
        }
      }
      event.source.postMessage(queue.length);
    })(),
  );
});
