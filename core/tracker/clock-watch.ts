/**
 * Notices the device's wall clock being moved while the game runs. The relay dates play by the difference
 * between its clock and the device's at sending (`sentAt`), which is right only if the device's clock was off
 * by the same amount when the session was played. Wall minus monotonic time stays constant while time simply
 * passes; when it jumps, someone moved the wall clock, and sessions stamped before the jump are moved by it
 * so that they are in the clock's present frame when sent.
 * assumed: a forward jump across a stay in the background is the device sleeping, not a clock change (some
 * monotonic clocks stop while a device sleeps); a clock moved forward while the game was in the background is
 * therefore not noticed. A clock moved while the game was closed cannot be noticed (the monotonic clock
 * restarts with the game); see docs/guides/tracker.md ("Device clocks").
 * @see DESIGN section 5
 */
import type { Platform } from '../platform.js';

/** Jumps under this are the two clocks' drift and timer jitter, ms: left to accumulate until they pass it. */
const CLOCK_JUMP_MS = 1_000;

/** See {@link clockWatch}. */
export interface ClockWatch {
  /** How far the wall clock has been moved since this tracker started, ms (observing it now). */
  moved(): number;
  /** The game went to the background (`true`) or came back (`false`). */
  background(inBackground: boolean): void;
}

/** Watches `platform`'s wall clock against its monotonic clock. */
export function clockWatch(platform: Pick<Platform, 'now' | 'monotonic'>): ClockWatch {
  const frame = () => platform.now() - platform.monotonic();
  let last = frame();
  let total = 0;
  /** In the background since the last observation: a forward jump may be sleep. */
  let asleep = false;
  const moved = () => {
    const current = frame();
    const jump = current - last;
    const jumped = Math.abs(jump) >= CLOCK_JUMP_MS;
    if (jumped || asleep) {
      if (jumped && !(asleep && jump > 0)) total += jump;
      last = current;
    }
    return total;
  };
  return {
    moved,
    background(inBackground) {
      moved(); // coming back, the jump across the background is judged while still asleep
      asleep = inBackground;
    },
  };
}
