/**
 * The relay's play-time plausibility rules. Creator campaigns pay out on play time, so a cheating client has
 * every reason to inflate it; the spec only asks `durationSeconds >= 1` and `endedAt >= startedAt`. A session
 * breaking one of these rules is an item-level FAILED (never forwarded), with an error saying which rule.
 * @see DESIGN section 6; docs/decisions.md ("Play-time plausibility")
 */
import type { BulkPlaytimeItem } from '../schema/playtime.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How far `durationSeconds` may exceed the seconds between `startedAt` and `endedAt`. assumed: 1 s, for
 * timestamps cut to the millisecond while the tracker rounds the played time up to whole seconds.
 */
export const DURATION_SLACK_SECONDS = 1;
/** Default of `RelayOptions.clockSkewMs`. assumed: 5 minutes, a generous allowance for device clocks. */
export const DEFAULT_CLOCK_SKEW_MS = 5 * 60 * 1000;
/**
 * Default of `RelayOptions.maxSessionAgeMs`. assumed: 30 days: offline queues legitimately hold sessions
 * for days (a player on a long trip), and a month-old session is no longer worth a payout dispute.
 */
export const DEFAULT_MAX_SESSION_AGE_MS = 30 * DAY_MS;

/** The limits {@link implausibility} judges a session by. */
export interface PlausibilityRules {
  clockSkewMs: number;
  maxSessionAgeMs: number;
}

/**
 * Why a session (already valid by the schema) cannot be believed, or undefined when it can, from its
 * `durationSeconds` and the instants of its `startedAt` and `endedAt` (ms, read once with its check):
 * - `durationSeconds` greater than the interval from `startedAt` to `endedAt` plus {@link DURATION_SLACK_SECONDS};
 * - `startedAt` or `endedAt` later than `nowMs` plus the clock-skew allowance (play that has not happened);
 * - `startedAt` earlier than `nowMs` minus the maximum session age.
 */
export function implausibility(durationSeconds: number, startedMs: number, endedMs: number, nowMs: number, rules: PlausibilityRules): string | undefined {
  const intervalSeconds = (endedMs - startedMs) / 1000;
  if (durationSeconds > intervalSeconds + DURATION_SLACK_SECONDS) {
    return `durationSeconds (${durationSeconds}) exceeds the ${intervalSeconds} s from startedAt to endedAt by more than ${DURATION_SLACK_SECONDS} s`;
  }
  const latest = nowMs + rules.clockSkewMs;
  if (startedMs > latest) return `startedAt is in the future (more than ${rules.clockSkewMs} ms ahead of the server's clock)`;
  if (endedMs > latest) return `endedAt is in the future (more than ${rules.clockSkewMs} ms ahead of the server's clock)`;
  if (startedMs < nowMs - rules.maxSessionAgeMs) return `startedAt is older than the relay's maximum session age of ${rules.maxSessionAgeMs} ms`;
  return undefined;
}

/**
 * The game's own policy for a session, run after the built-in rules: `true` (or nothing) accepts it, `false`
 * or a message refuses it (item FAILED with that message). Throw to have the client retry later (503).
 */
export type AcceptSession = (
  session: BulkPlaytimeItem,
  user: { userId: string },
) => boolean | string | undefined | void | Promise<boolean | string | undefined | void>;

/** The `error` of a session `acceptSession` refused with `false`. */
export const REFUSED_BY_POLICY_ERROR = "refused by the game's session policy";

/** The error of a refused session, or undefined when `verdict` accepts it. */
export function policyRefusal(verdict: boolean | string | undefined | void): string | undefined {
  if (verdict === false) return REFUSED_BY_POLICY_ERROR;
  if (typeof verdict === 'string') return verdict === '' ? REFUSED_BY_POLICY_ERROR : verdict;
  return undefined;
}
