import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform, createMemoryStorage } from '../../../core/memory-platform.js';
import type { KeyValueStorage } from '../../../core/platform.js';
import { PlaytimeTracker } from '../../../core/tracker/index.js';
import { RELAY_URL, T0, advance, createHarness, eventsOf, iso, settle, useFakeClock } from './harness.js';

beforeEach(useFakeClock);
afterEach(() => void vi.useRealTimers());

const quiet = { flushIntervalMs: 10_000_000, flushAt: 10_000 };
const key = (seq: number, sessionId: string) => `game-campaign:player:player-1:queue:${String(seq).padStart(12, '0')}:${sessionId}`;

/** A store that counts every call, by method. */
function countingStorage(inner: KeyValueStorage) {
  const calls = { get: 0, set: 0, delete: 0, keys: 0 };
  const storage: KeyValueStorage = {
    get: (k) => (calls.get++, inner.get(k)),
    set: (k, v) => (calls.set++, inner.set(k, v)),
    delete: (k) => (calls.delete++, inner.delete(k)),
    keys: (p) => (calls.keys++, inner.keys(p)),
  };
  return { storage, calls };
}

describe('the queue', () => {
  it('keeps one storage key per session, oldest first, in the exact bulk item shape', async () => {
    const { tracker, storage } = createHarness(quiet);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(tracker.start());
      await advance(1_000 * (i + 1));
      await tracker.stop();
    }
    expect(storage.snapshot()).toEqual({
      [key(0, ids[0]!)]: { sessionId: ids[0], userId: 'player-1', durationSeconds: 1, startedAt: iso(T0), endedAt: iso(T0 + 1_000) },
      [key(1, ids[1]!)]: { sessionId: ids[1], userId: 'player-1', durationSeconds: 2, startedAt: iso(T0 + 1_000), endedAt: iso(T0 + 3_000) },
      [key(2, ids[2]!)]: { sessionId: ids[2], userId: 'player-1', durationSeconds: 3, startedAt: iso(T0 + 3_000), endedAt: iso(T0 + 6_000) },
    });
  });

  it('continues the sequence after the entries a previous run left', async () => {
    const storage = createMemoryStorage();
    await storage.set(key(41, 'old'), { sessionId: 'old', userId: 'player-1', durationSeconds: 5, startedAt: iso(T0 - 10_000), endedAt: iso(T0 - 5_000) });
    const platform = createMemoryPlatform({ storage, online: false });
    const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: RELAY_URL }, ...quiet });
    const sessionId = tracker.start();
    await advance(1_000);
    await tracker.stop();
    expect(Object.keys(storage.snapshot())).toEqual([key(41, 'old'), key(42, sessionId)]);
  });

  it('enqueueing costs one write whatever the queue length: no listing, no reading, no rewrite', async () => {
    const inner = createMemoryStorage();
    for (let i = 0; i < 5_000; i++) await inner.set(key(i, `s-${i}`), { sessionId: `s-${i}` });
    const { storage, calls } = countingStorage(inner);
    const platform = createMemoryPlatform({ storage, online: false });
    const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: RELAY_URL }, ...quiet });
    tracker.start();
    await advance(1_000);
    await settle();
    Object.assign(calls, { get: 0, set: 0, delete: 0, keys: 0 });
    await tracker.stop();
    // one write for the queue entry, one delete of the running session's record
    expect(calls).toEqual({ get: 0, set: 1, delete: 1, keys: 0 });
  });

  it('over maxQueue, the oldest sessions are dropped with reason overflow', async () => {
    const { tracker, storage, log } = createHarness({ ...quiet, maxQueue: 3 });
    const sessions = [];
    for (let i = 0; i < 5; i++) {
      const sessionId = tracker.start();
      await advance(2_000);
      await tracker.stop();
      sessions.push({ sessionId, userId: 'player-1', durationSeconds: 2, startedAt: iso(T0 + i * 2_000), endedAt: iso(T0 + (i + 1) * 2_000) });
    }
    expect(eventsOf(log, 'dropped')).toEqual([
      { sessionId: sessions[0]!.sessionId, reason: 'overflow', session: sessions[0] },
      { sessionId: sessions[1]!.sessionId, reason: 'overflow', session: sessions[1] },
    ]);
    expect(storage.snapshot()).toEqual(Object.fromEntries(sessions.slice(2).map((session, i) => [key(i + 2, session.sessionId), session])));
  });

  it('overflow never drops a session a flush is sending', async () => {
    const { tracker, relay, log } = createHarness({ ...quiet, maxQueue: 2 });
    const first = tracker.start();
    await advance(1_000);
    await tracker.stop();
    const release = relay.hold();
    const flushing = tracker.flush();
    await settle();
    const ids = [];
    for (let i = 0; i < 2; i++) {
      ids.push(tracker.start());
      await advance(1_000);
      await tracker.stop();
    }
    release();
    await flushing;
    await settle();
    // the in-flight first session was acknowledged; the overflow fell on the oldest one not in flight
    expect(eventsOf(log, 'flushed')[0]).toEqual({ results: [{ sessionId: first, status: 'SUCCESS' }] });
    expect(eventsOf(log, 'dropped').map((event) => [event.sessionId, event.reason])).toEqual([[ids[0], 'overflow']]);
  });

  it('ignores and forgets an entry another tracker on the same store already sent', async () => {
    const { tracker, storage, relay, log } = createHarness(quiet);
    const sessionId = tracker.start();
    await advance(1_000);
    await tracker.stop();
    await storage.delete(key(0, sessionId)); // sent and deleted by another tab
    await tracker.flush();
    expect(relay.requests).toEqual([]);
    expect(log.filter(([name]) => name === 'flushed' || name === 'dropped')).toEqual([]);
  });
});

describe('a read racing a write that fails', () => {
  it('keeps the session (held in memory) when its write fails while a flush is reading it: found, not forgotten', async () => {
    const { sessionQueue } = await import('../../../core/tracker/queue.js');
    // A store whose write fails late (a full origin) and whose read answers after that failure.
    let failWrite!: (error: Error) => void;
    let answerRead!: (value: undefined) => void;
    const storage: KeyValueStorage = {
      set: () => new Promise((_, reject) => (failWrite = reject)),
      get: () => new Promise((resolve) => (answerRead = resolve)),
      delete: async () => undefined,
      keys: async () => [],
    };
    const left: string[] = [];
    const queue = sessionQueue(storage, 'q:', 100, () => undefined, () => undefined, () => 0, (sessionId) => left.push(sessionId));
    const session = { sessionId: 's-1', userId: 'player-1', durationSeconds: 3, startedAt: iso(T0), endedAt: iso(T0 + 3_000) };
    const stored = queue.enqueue(session);
    const [key] = queue.oldest(10, new Set());
    const reading = queue.read([key!]); // the write is under way: storage does not show the session yet
    failWrite(new Error('QuotaExceededError'));
    expect(await stored).toBe(false); // held in memory for this run
    answerRead(undefined);
    expect(await reading).toEqual([{ key, session, moved: 0 }]);
    expect([queue.size(), left]).toEqual([1, []]);
  });
});
