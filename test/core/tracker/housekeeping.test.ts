// The tracker's start-up housekeeping (core/tracker/housekeeping.ts) is imported lazily, only when something
// other than the player's own queue is stored; a failed import (a web page gone offline) loses nothing.
// `flush()` waits for start-up, the import included (a module load takes real time, which fake timers do not
// move): each story waits on it before looking.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '../../../core/memory-platform.js';
import { T0, advance, createHarness, eventsOf, item, key, settle, useFakeClock } from './harness.js';

type Housekeeping = typeof import('../../../core/tracker/housekeeping.js');

/**
 * The module as the tracker gets it, counting its loads: `housekeepingCode()` is where a load completes (in the
 * `<script>` bundle, where its sibling file loads), so failing or holding it stands for a chunk that did not
 * arrive or arrives late. Mocked for the whole file (hoisted), so every story sees the same module.
 */
const chunk = vi.hoisted(() => ({ loads: 0, fail: false, held: undefined as Promise<void> | undefined }));
vi.mock('../../../core/tracker/housekeeping.js', async (importOriginal) => {
  const original = await importOriginal<Housekeeping>();
  return {
    ...original,
    housekeepingCode: async () => {
      chunk.loads++;
      await chunk.held;
      if (chunk.fail) throw new Error('Failed to fetch dynamically imported module: housekeeping.js');
      return original.housekeepingCode();
    },
  };
});

beforeEach(() => {
  useFakeClock();
  Object.assign(chunk, { loads: 0, fail: false, held: undefined });
});
afterEach(() => void vi.useRealTimers());

describe('start-up housekeeping', () => {
  it('is not loaded while only this player queue and choice are stored', async () => {
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
    expect(chunk.loads).toBe(0);
    expect(eventsOf(second.log, 'flushed')).toHaveLength(1);
  });

  it('is loaded once for a crashed session, which it recovers', async () => {
    const first = createHarness();
    const sessionId = first.tracker.start();
    await advance(20_000);
    first.platform.crash();
    const second = createHarness({}, { storage: first.storage, relay: first.relay });
    await second.tracker.flush();
    await settle();
    expect(chunk.loads).toBe(1);
    expect(eventsOf(second.log, 'session:end').map((event) => [event.sessionId, event.reason])).toEqual([[sessionId, 'recovered']]);
    expect(eventsOf(second.log, 'flushed')).toHaveLength(1);
  });

  it('failing to load is reported once as a storage error; the crashed session stays stored and the next start-up recovers it', async () => {
    const first = createHarness();
    const sessionId = first.tracker.start();
    await advance(20_000);
    first.platform.crash();
    const stored = first.storage.snapshot();

    chunk.fail = true;
    const offline = createHarness({}, { storage: first.storage, relay: first.relay });
    await offline.tracker.flush();
    expect(eventsOf(offline.log, 'error').map((event) => [event.kind, String(event.error)])).toEqual([['storage', expect.stringContaining('housekeeping.js')]]);
    expect(eventsOf(offline.log, 'session:end')).toEqual([]);
    expect(first.storage.snapshot()).toEqual(stored);
    offline.platform.crash();

    chunk.fail = false;
    const next = createHarness({}, { storage: first.storage, relay: first.relay });
    await next.tracker.flush();
    await settle();
    expect(eventsOf(next.log, 'session:end').map((event) => [event.sessionId, event.reason])).toEqual([[sessionId, 'recovered']]);
    expect(eventsOf(next.log, 'flushed').flatMap((event) => event.results.map((result) => result.sessionId))).toEqual([sessionId]);
    expect(first.storage.snapshot()).toEqual({});
  });

  it('sends nothing until recovery has looked: a session queued just before a crash (its record not yet deleted) is sent once, not recovered', async () => {
    // The crash fell between the queue write and the deletion of the running record.
    const storage = createMemoryStorage();
    const queued = item('11111111-1111-4111-8111-111111111111');
    await storage.set(key(0, queued.sessionId), queued);
    await storage.set(`game-campaign:player:player-1:running:${queued.sessionId}`, { userId: 'player-1', owner: 'crashed-instance', startedAtMs: T0 - 120_000, spanMs: 60_000, playedMs: 60_000 });
    let release = () => {};
    chunk.held = new Promise<void>((resolve) => (release = resolve)); // a slow download
    const game = createHarness({}, { storage });
    await settle();
    game.platform.setOnline(false);
    game.platform.setOnline(true); // the network returns while the chunk downloads: a flush is asked for
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

