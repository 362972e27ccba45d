/**
 * Play dated by the relay's clock, not the device's: a phone whose clock is off by minutes or days (set by
 * hand, reset by a battery change, moved to cheat a game's timers) would otherwise have its sessions refused
 * as future or too old, or recorded at the wrong time. The tracker sends its wall clock with every batch
 * (`sentAt`); the relay moves each session by the difference from its own clock, as Segment does with its
 * `sentAt`, before its plausibility rules. Durations are untouched (they come from the monotonic clock).
 * @see DESIGN sections 5 and 6; docs/guides/tracker.md ("Device clocks")
 */
import type { BulkPlaytimeItem } from '../schema/playtime.js';

/**
 * Below this, the difference between the relay's clock and `sentAt` is taken for the request's transit time,
 * not a wrong clock, and the times are left as sent. assumed: 2 s (a keepalive request on a slow network).
 */
export const TRANSIT_ALLOWANCE_MS = 2_000;

/** How far to move the sessions of a batch sent at `sentAt` (device clock) and received at `nowMs` (relay clock). */
export function clockShiftMs(sentAt: string | undefined, nowMs: number): number {
  if (sentAt === undefined) return 0;
  const shift = nowMs - Date.parse(sentAt);
  return Math.abs(shift) < TRANSIT_ALLOWANCE_MS ? 0 : shift;
}

/**
 * `session` with `startedAt` and `endedAt` moved by `shiftMs`, a copy. Its caller (the tracker's `presentFrame`)
 * moves only a session it has a non-zero shift for, so there is no test for 0 here to ride in game clients.
 */
export function shiftSession(session: BulkPlaytimeItem, shiftMs: number): BulkPlaytimeItem {
  // Both stay within Date's range (the schema holds years 0000-9999), so toISOString cannot throw; a year
  // moved outside 0000-9999 is written in the expanded form and refused as too old or in the future.
  const move = (timestamp: string) => new Date(Date.parse(timestamp) + shiftMs).toISOString();
  return { ...session, startedAt: move(session.startedAt), endedAt: move(session.endedAt) };
}
