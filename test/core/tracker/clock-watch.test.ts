/**
 * The wall clock watched against the monotonic clock: a jump of their difference is the device clock being
 * moved, except a forward jump across a stay in the background (the device slept; some monotonic clocks stop).
 */
import { describe, expect, it } from 'vitest';
import { clockWatch } from '../../../core/tracker/clock-watch.js';

/** Clocks a test moves by hand: `wall` and `mono`, ms. */
function clocks() {
  const time = { wall: 1_000_000, mono: 0 };
  return { time, watch: clockWatch({ now: () => time.wall, monotonic: () => time.mono }), pass: (ms: number) => ((time.wall += ms), (time.mono += ms)) };
}

describe('clockWatch', () => {
  it('time passing is no move; a clock set forward or back is, and the moves add up', () => {
    const { time, watch, pass } = clocks();
    pass(60_000);
    expect(watch.moved()).toBe(0);
    time.wall += 3_600_000;
    pass(5_000);
    expect(watch.moved()).toBe(3_600_000);
    time.wall -= 86_400_000;
    expect(watch.moved()).toBe(3_600_000 - 86_400_000);
    expect(watch.moved()).toBe(3_600_000 - 86_400_000);
  });

  it('drift under a second is left to add up until it is one', () => {
    const { time, watch } = clocks();
    time.wall += 600;
    expect(watch.moved()).toBe(0);
    time.wall += 600;
    expect(watch.moved()).toBe(1_200);
  });

  it('a forward jump across the background is sleep, not a move; a backward one is a move', () => {
    const { time, watch, pass } = clocks();
    watch.background(true);
    time.wall += 7_200_000; // two hours asleep: the monotonic clock stood still
    watch.background(false);
    expect(watch.moved()).toBe(0);
    watch.background(true);
    pass(1_000);
    time.wall -= 3_600_000;
    watch.background(false);
    expect(watch.moved()).toBe(-3_600_000);
    time.wall += 600_000; // in the foreground again: a move
    expect(watch.moved()).toBe(-3_000_000);
  });
});
