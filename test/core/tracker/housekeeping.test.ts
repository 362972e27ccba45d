// The tracker's start-up housekeeping (core/tracker/housekeeping.ts) comes with the tracker's code and runs only
// when something other than the player's own queue is stored; nothing is sent before it has looked.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '../../../core/memory-platform.js';
import { T0, advance, createHarness, eventsOf, item, key, settle, useFakeClock } from './harness.js';

type Housekeeping = typeof import('../../../core/tracker/housekeeping.js');

/** Counts the recoveries start-up runs; `held` stands for a slow recovery (a storage taking its time). */
const recovery = vi.hoisted(() => ({ runs: 0, held: undefined as Promise<void> | undefined }));
vi.mock('../../../core/tracker/housekeeping.js', async (importOriginal) => {
  const original = await importOriginal<Housekeeping>();
  return {
    ...original,
    recoverCrashedSessions: async (...args: Parameters<Housekeeping['recoverCrashedSessions']>) => {
      recovery.runs++;
      await recovery.held;
      return original.recoverCrashedSessions(...args);
    },
  };
});

beforeEach(() => {
  useFakeClock();
  Object.assign(recovery, { runs: 0, held: undefined });
});
afterEach(() => void vi.useRealTimers());

describe('start-up housekeeping', () => {
  it('does not run while only this player queue and choice are stored', async () => {
    const first = createHarness();
    first.platform.setOnline(false);
    first.tracker.start();
    await advance(5_000);
    await first.tracker.stop();
    await first.tracker.setOptOut(false);
    await first.tracker.dispose();
    expect(Object.keys(first.storage.snapshot()).sort()).toEqual(['game-campaign:player:player-1:opt-out', expect.stringMatching(/^game-campaign:player:player-1:queue:/)]);

    const second = createHarness({}, { storage: first.storage, relay: first.relay });
    await second.tracker.flush();
    expect(recovery.runs).toBe(0);
    expect(eventsOf(second.log, 'flushed')).toHaveLength(1);
  });

  it('runs once for a crashed session, which it recovers', async () => {
    const first = createHarness();
    const sessionId = first.tracker.start();
    await advance(20_000);
    first.platform.crash();
    const second = createHarness({}, { storage: first.storage, relay: first.relay });
    await second.tracker.flush();
    await settle();
    expect(recovery.runs).toBe(1);
    expect(eventsOf(second.log, 'session:end').map((event) => [event.sessionId, event.reason])).toEqual([[sessionId, 'recovered']]);
    expect(eventsOf(second.log, 'flushed')).toHaveLength(1);
  });

  it('sends nothing until recovery has looked: a session queued just before a crash (its record not yet deleted) is sent once, not recovered', async () => {
    // The crash fell between the queue write and the deletion of the running record.
    const storage = createMemoryStorage();
    const queued = item('11111111-1111-4111-8111-111111111111');
    await storage.set(key(0, queued.sessionId), queued);
    await storage.set(`game-campaign:player:player-1:running:${queued.sessionId}`, { userId: 'player-1', owner: 'crashed-instance', startedAtMs: T0 - 120_000, spanMs: 60_000, playedMs: 60_000 });
    let release = () => {};
    recovery.held = new Promise<void>((resolve) => (release = resolve)); // a slow recovery
    const game = createHarness({}, { storage });
    await settle();
    game.platform.setOnline(false);
    game.platform.setOnline(true); // the network returns while recovery runs: a flush is asked for
    game.platform.background(); // and the game goes to the background: another
    await settle();
    expect(game.relay.requests).toEqual([]);

    release();
    await game.tracker.flush();
    await settle();
    expect(eventsOf(game.log, 'session:end')).toEqual([]);
    expect(game.relay.successes).toEqual(new Map([[queued.sessionId, 1]]));
    expect(game.storage.snapshot()).toEqual({});
  });
});

