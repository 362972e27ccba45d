/**
 * Copies of one player's session in flight at once in this relay (twice in one body, or in requests that overlap:
 * a page's exit keepalive beside a flush). The first copy is capped and forwarded; each later copy waits for its
 * answer and is answered as the service answers a duplicate: SKIPPED once the first is recorded, so the daily cap
 * is never spent twice nor a recorded session told FAILED "daily cap".
 * assumed: per process (relays behind a load balancer each forward their own copy; the cap's marks count it once).
 * @see spec "Bulk item (session or payment)" error row; docs/decisions.md ("Daily play-time cap: copies in flight")
 */
import type { PlaytimeItemResult } from '../schema/playtime.js';

/** The first copy's answer, or undefined when it got none (the upstream call failed). */
export type FirstCopyAnswer = Promise<PlaytimeItemResult | undefined>;

const inFlightByRoute = new WeakMap<object, Map<string, FirstCopyAnswer>>();

/** One player's session, never another's: the key holds both, unambiguously. */
function copyKey(userId: string, sessionId: string): string {
  return JSON.stringify([userId, sessionId]);
}

/** What a request holds of a session: the first copy (to settle) or a later one (to wait for). */
export interface CopyClaim {
  wait?: FirstCopyAnswer;
  settle?: (answer: PlaytimeItemResult | undefined) => void;
}

/** Claims `sessionId` for `userId` on `route`: the first claim settles, the others wait until it does. */
export function claimCopy(route: object, userId: string, sessionId: string): CopyClaim {
  let inFlight = inFlightByRoute.get(route);
  if (!inFlight) inFlightByRoute.set(route, (inFlight = new Map()));
  const key = copyKey(userId, sessionId);
  const wait = inFlight.get(key);
  if (wait) return { wait };
  let settle!: (answer: PlaytimeItemResult | undefined) => void;
  const answer: FirstCopyAnswer = new Promise((resolve) => (settle = resolve));
  inFlight.set(key, answer);
  return {
    settle: (result) => {
      inFlight.delete(key);
      settle(result);
    },
  };
}

/** A later copy's answer from the first's: SKIPPED when recorded, else the first's own FAILED answer. */
export function laterCopyAnswer(first: PlaytimeItemResult, sessionId: string): PlaytimeItemResult {
  return first.status === 'SUCCESS' || first.status === 'SKIPPED' ? { sessionId, status: 'SKIPPED' } : { ...first, sessionId };
}
