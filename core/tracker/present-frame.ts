/**
 * A queued session read for sending, moved into the device clock's present frame: what the flusher and the page exit
 * (./page-exit.ts) both send. A module of its own so that the page exit shares no more of the tracker than it uses.
 * @see ./clock-watch.ts
 */
import { shiftSession } from '../relay/device-clock.js';
import type { QueuedSession } from './queue.js';

/**
 * A queued session in the device clock's present frame, the one `sentAt` is read in: moved as far as the clock was
 * moved (`moved`) since it was queued, and ending no later than `nowMs` (a clock moved back while the game was
 * closed would otherwise date it in the future).
 */
export function presentFrame(item: QueuedSession, moved: number, nowMs: number): QueuedSession {
  const shift = Math.min(moved - item.moved, nowMs - Date.parse(item.session.endedAt));
  return shift ? { ...item, session: shiftSession(item.session, shift) } : item;
}
