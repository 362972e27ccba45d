/**
 * Browsers give `keepalive` requests one shared quota: the bodies of all keepalive requests a page has in flight
 * may total 64 KiB, and a request past it is refused (`TypeError`). The trackers size their bodies against it
 * (./body-size.ts, counted for every tracker of the page), but the game's own keepalive requests and beacons share
 * it unseen: this wrapper sends a refused keepalive request again as an ordinary one.
 * @see DESIGN sections 4 and 5
 */
import type { FetchLike } from '../platform.js';

/**
 * Wraps `fetch` so a keepalive request that fails is sent again at once as an ordinary request. Chromium refuses a
 * keepalive body past what the page's other keepalive requests left of its 64 KiB (the game's analytics beacons
 * included) with the `TypeError` a request without an answer gets (test/browser/portal/exit-refused.test.ts); counted
 * as the relay unreachable, three such refusals at tab switches reported a relay that was fine. Sent again, it
 * completes while the page lives; a page going away cancels it and its sessions stay queued for the next start-up; a
 * real network failure fails again, and that is what the flusher counts. Nothing is counted here: the trackers' own
 * bodies in flight are (./body-size.ts), and what they miss (another copy of the SDK on the page)
 * is refused and sent again like the game's.
 * Not once `unloading()` says the page is being unloaded (a `pagehide` not kept in the back/forward cache): Chromium 150
 * rejects a keepalive request it delivered with the same `TypeError` when the closed tab's renderer is torn down (p65,
 * test/browser/exit-teardown.test.ts: the closed tab's JavaScript still ran after `unload`), and the ordinary copy
 * reached the relay too, answered SKIPPED. What a closing page does not send waits in storage for the next visit.
 * @example
 * ```ts
 * const platformFetch = withKeepaliveQuota((input, init) => fetch(input, init));
 * ```
 */
export function withKeepaliveQuota(fetch: FetchLike, unloading?: () => unknown): FetchLike {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      if (!init?.keepalive || unloading?.()) throw error;
      return fetch(input, { ...init, keepalive: false });
    }
  };
}
