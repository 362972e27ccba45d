/**
 * Browsers give `keepalive` requests one shared quota: the bodies of all keepalive requests a page has in flight
 * may total 64 KiB, and a request past it is refused at once (`TypeError`). The flusher keeps each body under
 * the limit and sends one at a time; this wrapper keeps the TOTAL under it when several senders share one
 * fetch (two trackers in a page, a flush that goes keepalive while another keepalive request is in flight).
 * @see DESIGN sections 4 and 5
 */
import type { FetchLike } from '../platform.js';
import { KEEPALIVE_BODY_LIMIT, utf8Length } from './body-size.js';

/**
 * Wraps `fetch` so keepalive string bodies in flight through it stay under 64 KiB ({@link KEEPALIVE_BODY_LIMIT}, the
 * quota of Chromium, Firefox and WebKit) in total. A keepalive request that would pass the limit is sent as an
 * ordinary request instead of being refused: it completes while the page lives, and if the page goes away first its
 * sessions simply stay queued for the next start-up. A keepalive request the browser refuses is sent again at once as
 * an ordinary one: the page's quota is shared with the game's own keepalive requests and beacons, which this wrapper
 * does not see, and Chromium refuses a body past what they left with the `TypeError` a request without an answer gets
 * (test/browser/portal/exit-refused.test.ts). Counted as the relay unreachable, three such refusals at tab switches
 * reported a relay that was fine; sent again, a page that lives on delivers them, and a real network failure fails
 * again. The limit is no parameter: its one caller (the browser platform) has no other, and a game's bundle then
 * carries no default for it.
 * @example
 * ```ts
 * const platformFetch = withKeepaliveQuota((input, init) => fetch(input, init));
 * ```
 */
export function withKeepaliveQuota(fetch: FetchLike): FetchLike {
  /** What the keepalive bodies in flight through this fetch leave of the quota, bytes. */
  let left = KEEPALIVE_BODY_LIMIT;
  return async (input, init) => {
    // Any other request counts 0 bytes and goes as it is. `left` is never 0 (a body is only counted when smaller than it).
    const bytes = init?.keepalive && typeof init.body === 'string' ? utf8Length(init.body) : 0;
    if (bytes && bytes < left) {
      left -= bytes;
      try {
        return await fetch(input, init);
      } catch {
        // Refused (or failed): sent again below as an ordinary request.
      } finally {
        left += bytes;
      }
    }
    return fetch(input, bytes ? { ...init, keepalive: false } : init);
  };
}
