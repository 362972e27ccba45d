/**
 * Field conditions: device clocks that are wrong. Players set clocks wrong by mistake, after a battery change
 * and on purpose (to cheat a game's timers); campaigns pay creators on this play time. Promise (tracker
 * guide, "Device clocks"): a session played on a device whose clock is off by any constant amount is recorded
 * once, with startedAt within 60 s of the true time; a clock moved while the game runs is followed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '../../core/memory-platform.js';
import { DAY, HOUR, MINUTE, T0, fieldService, flushNow, pass, startGame, useFieldClock } from './field-service.js';

beforeEach(useFieldClock);
afterEach(() => void vi.useRealTimers());

/** How far a recorded time is from the true one, ms. */
const offBy = (recorded: string, trueMs: number) => Math.abs(Date.parse(recorded) - trueMs);

describe('a device clock off by a constant amount', () => {
  for (const [label, offset] of [
    ['10 min ahead', 10 * MINUTE],
    ['2 h ahead', 2 * HOUR],
    ['3 days ahead', 3 * DAY],
    ['9 h behind', -9 * HOUR],
    ['40 days behind', -40 * DAY],
  ] as const) {
    it(`${label}: the session is recorded once, at the true time, its duration unchanged`, async () => {
      const service = fieldService();
      const game = startGame(service, createMemoryStorage(), 'player-1', { wallClockOffsetMs: offset });
      await pass();
      const startedAt = Date.now();
      const sessionId = await game.play(5_000);
      await flushNow(game);
      const [recorded, ...more] = service.recorded('player-1');
      expect(more).toEqual([]);
      expect(recorded).toMatchObject({ sessionId, durationSeconds: 5 });
      expect(offBy(recorded!.startedAt, startedAt)).toBeLessThan(60_000);
      expect(game.events('dropped')).toEqual([]);
      await game.tracker.dispose();
    });
  }
});

describe('a device clock moved while the game runs', () => {
  it('moved mid-session (3 days ahead): recorded once at the true time, the duration counted by the monotonic clock', async () => {
    const service = fieldService();
    const game = startGame(service, createMemoryStorage(), 'player-1');
    await pass();
    const startedAt = Date.now();
    const sessionId = game.tracker.start();
    await pass(20_000);
    game.platform.setWallClock(3 * DAY);
    await pass(10_000);
    await game.tracker.stop();
    await flushNow(game);
    expect(service.recorded()).toHaveLength(1);
    expect(service.recorded()[0]).toMatchObject({ sessionId, durationSeconds: 30 });
    expect(offBy(service.recorded()[0]!.startedAt, startedAt)).toBeLessThan(60_000);
    await game.tracker.dispose();
  });

  it('moved back mid-session by 9 h, then forward 2 h: still the true time', async () => {
    const service = fieldService();
    const game = startGame(service, createMemoryStorage(), 'player-1');
    await pass();
    const startedAt = Date.now();
    game.tracker.start();
    await pass(20_000);
    game.platform.setWallClock(-9 * HOUR);
    await pass(20_000);
    game.platform.setWallClock(2 * HOUR);
    await pass(20_000);
    await game.tracker.stop();
    await flushNow(game);
    expect(service.recorded().map((s) => s.durationSeconds)).toEqual([60]);
    expect(offBy(service.recorded()[0]!.startedAt, startedAt)).toBeLessThan(60_000);
    await game.tracker.dispose();
  });

  it('moved between play and flush, offline (40 days back): recorded once at the true time when the network returns', async () => {
    const service = fieldService();
    const game = startGame(service, createMemoryStorage(), 'player-1', { online: false });
    await pass();
    const startedAt = Date.now();
    const sessionId = await game.play(8_000);
    await pass(5 * MINUTE);
    game.platform.setWallClock(-40 * DAY);
    await pass(MINUTE);
    game.platform.setOnline(true);
    await flushNow(game);
    expect(service.recorded()).toHaveLength(1);
    expect(service.recorded()[0]).toMatchObject({ sessionId, durationSeconds: 8 });
    expect(offBy(service.recorded()[0]!.startedAt, startedAt)).toBeLessThan(60_000);
    expect(game.events('dropped')).toEqual([]);
    await game.tracker.dispose();
  });

  it('moved between play and flush, offline (3 days ahead), across a stay in the background: recorded at the true time', async () => {
    const service = fieldService();
    const game = startGame(service, createMemoryStorage(), 'player-1', { online: false });
    await pass();
    const startedAt = Date.now();
    await game.play(8_000);
    game.platform.setWallClock(3 * DAY); // while playing on: a clock moved in the foreground
    await pass(MINUTE);
    game.platform.background();
    await pass(MINUTE);
    game.platform.foreground();
    game.platform.setOnline(true);
    await flushNow(game);
    expect(service.recorded().map((s) => s.durationSeconds)).toEqual([8]);
    expect(offBy(service.recorded()[0]!.startedAt, startedAt)).toBeLessThan(60_000);
    await game.tracker.dispose();
  });

  it('moved back 40 days while the game was closed (cannot be seen): still recorded once, dated no later than it was sent', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const first = startGame(service, storage, 'player-1', { online: false });
    await pass();
    const sessionId = await first.play(6_000);
    await first.tracker.dispose();
    await pass(HOUR);
    const second = startGame(service, storage, 'player-1', { wallClockOffsetMs: -40 * DAY });
    await flushNow(second);
    expect(service.recorded()).toHaveLength(1);
    expect(service.recorded()[0]).toMatchObject({ sessionId, durationSeconds: 6 });
    expect(Date.parse(service.recorded()[0]!.endedAt)).toBeLessThanOrEqual(Date.now());
    expect(second.events('dropped')).toEqual([]);
    await second.tracker.dispose();
  });
});

describe('plausibility still holds after the correction', () => {
  it('a session inflated beyond its span (a tampered queue entry) is still refused, the honest one recorded', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const first = startGame(service, storage, 'player-1', { online: false, wallClockOffsetMs: 2 * HOUR });
    await pass();
    await first.play(5_000);
    await first.play(5_000);
    await first.tracker.dispose();
    const [key] = await storage.keys('game-campaign:player:player-1:queue:');
    const entry = (await storage.get<Record<string, unknown>>(key!))!;
    await storage.set(key!, { ...entry, durationSeconds: 5 * 3600 });
    const second = startGame(service, storage, 'player-1', { wallClockOffsetMs: 2 * HOUR });
    await flushNow(second);
    expect(service.recorded().map((s) => s.durationSeconds)).toEqual([5]);
    expect(second.events('dropped').map((d) => [d.sessionId, d.reason])).toEqual([[entry['sessionId'], 'rejected']]);
    await second.tracker.dispose();
  });
});
