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
 * sessions simply stay queued for the next start-up. The limit is no parameter: its one caller (the browser
 * platform) has no other, and a game's bundle then carries no default for it.
 * @example
 * ```ts
 * const platformFetch = withKeepaliveQuota((input, init) => fetch(input, init));
 * ```
 */
export function withKeepaliveQuota(fetch: FetchLike): FetchLike {
  /** What the keepalive bodies in flight through this fetch leave of the quota, bytes. */
  let left = KEEPALIVE_BODY_LIMIT;
  return async (input, init) => {
    // Any other request counts 0 bytes. `left` is never 0 (a body is only counted when smaller than it), so those go as they are.
    const bytes = init?.keepalive && typeof init.body === 'string' ? utf8Length(init.body) : 0;
    if (bytes >= left) return fetch(input, { ...init, keepalive: false });
    left -= bytes;
    try {
      return await fetch(input, init);
    } finally {
      left += bytes;
    }
  };
}
