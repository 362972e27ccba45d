import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform, createMemoryStorage } from '../../../core/memory-platform.js';
import type { KeyValueStorage, Platform } from '../../../core/platform.js';
import { PlaytimeTracker } from '../../../core/tracker/index.js';
import { createFakeRelay } from './fake-relay.js';
import { PLAYTIME_URL, RELAY_URL, T0, advance, createHarness, eventsOf, iso, recordEvents, settle, useFakeClock } from './harness.js';

beforeEach(useFakeClock);
afterEach(() => void vi.useRealTimers());

describe('crash recovery', () => {
  it('a tracker created on the same storage after a crash recovers the session, ended at its last checkpoint, and sends it', async () => {
    const first = createHarness();
    const sessionId = first.tracker.start({ creatorKey: 'ABCDE' });
    await advance(40_000); // checkpoints at 15 s and 30 s
    first.platform.crash();
    await advance(20_000);

    const second = createHarness({}, { storage: first.storage, relay: first.relay });
    await settle();
    const session = { sessionId, userId: 'player-1', durationSeconds: 30, startedAt: iso(T0), endedAt: iso(T0 + 30_000), creatorKey: 'ABCDE' };
    expect(second.log).toEqual([
      ['session:end', { sessionId, reason: 'recovered', session }],
      ['flushed', { results: [{ sessionId, status: 'SUCCESS' }] }],
    ]);
    expect(first.relay.requests.map((request) => [request.url, request.body])).toEqual([[PLAYTIME_URL, { sessions: [session], sentAt: iso(T0 + 60_000) }]]);
    expect(first.storage.snapshot()).toEqual({});
  });

  it('a crash in the background recovers the session as it was when it went there', async () => {
    const first = createHarness();
    const sessionId = first.tracker.start();
    await advance(20_000);
    first.platform.background();
    await advance(5_000);
    first.platform.crash();
    const second = createHarness({}, { storage: first.storage, relay: first.relay });
    await settle();
    expect(eventsOf(second.log, 'session:end')).toEqual([
      { sessionId, reason: 'recovered', session: { sessionId, userId: 'player-1', durationSeconds: 20, startedAt: iso(T0), endedAt: iso(T0 + 20_000) } },
    ]);
  });

  it('a crash before the first full interval keeps the session: an early checkpoint at 1 s gives it the minimum length', async () => {
    const first = createHarness();
    const sessionId = first.tracker.start();
    await advance(10_000);
    first.platform.crash();
    const second = createHarness({}, { storage: first.storage, relay: first.relay });
    await settle();
    expect(eventsOf(second.log, 'session:end')).toEqual([
      { sessionId, reason: 'recovered', session: { sessionId, userId: 'player-1', durationSeconds: 1, startedAt: iso(T0), endedAt: iso(T0 + 1_000) } },
    ]);
    expect(eventsOf(second.log, 'dropped')).toEqual([]);
  });

  it('a crash within the first second leaves only the write-ahead record: reported too-short, not lost', async () => {
    const first = createHarness();
    const sessionId = first.tracker.start();
    await advance(999);
    first.platform.crash();
    const second = createHarness({}, { storage: first.storage, relay: first.relay });
    await settle();
    expect(eventsOf(second.log, 'dropped')).toEqual([
      { sessionId, reason: 'too-short', session: { sessionId, userId: 'player-1', durationSeconds: 0, startedAt: iso(T0), endedAt: iso(T0) }, error: 'durationSeconds must be a whole number of at least 1', details: [{ path: 'durationSeconds', message: 'must be a whole number of at least 1' }] },
    ]);
    expect(first.storage.snapshot()).toEqual({});
  });

  it('a second live tracker on the same storage (another tab) never takes over a running session', async () => {
    const first = createHarness();
    const sessionId = first.tracker.start();
    await advance(20_000);
    const second = createHarness({}, { storage: first.storage, relay: first.relay });
    await advance(10_000);
    expect(second.log).toEqual([]);
    await first.tracker.stop();
    await first.tracker.dispose();
    await settle();
    expect(eventsOf(first.log, 'session:end').map((event) => [event.sessionId, event.reason, event.session.durationSeconds])).toEqual([[sessionId, 'stop', 30]]);
    expect(eventsOf(second.log, 'session:end')).toEqual([]);
  });

  it('a window closed before its session record was deleted: another window of the player, open meanwhile, does not end that session a second time', async () => {
    const first = createHarness({}, { backgroundMayBeFinal: true });
    const sessionId = first.tracker.start();
    await advance(20_000);
    const second = createHarness({}, { storage: first.storage, relay: first.relay, backgroundMayBeFinal: true });
    await settle();
    // The first window is closed: its exit sends the session and queues it, and the page is gone before the answer
    // arrives and before the record's delete lands.
    const release = first.relay.hold();
    const deleteOf = first.storage.delete.bind(first.storage);
    const deletes = vi.spyOn(first.storage, 'delete').mockImplementation((key) => (key.includes(':running:') ? new Promise<void>(() => {}) : deleteOf(key)));
    first.platform.background();
    await settle();
    first.platform.crash();
    deletes.mockRestore();
    release();
    await advance(1_000);
    await second.tracker.flush();
    const session = { sessionId, userId: 'player-1', durationSeconds: 20, startedAt: iso(T0), endedAt: iso(T0 + 20_000) };
    expect(eventsOf(first.log, 'session:end')).toEqual([{ sessionId, reason: 'hidden', session }]);
    expect(eventsOf(second.log, 'session:end')).toEqual([]);
    expect(eventsOf(second.log, 'flushed')).toEqual([{ results: [{ sessionId, status: 'SKIPPED' }] }]);
    expect(first.relay.requests.map((request) => request.body.sessions.map((sent) => sent.sessionId))).toEqual([[sessionId], [sessionId]]);
    expect(first.storage.snapshot()).toEqual({});
  });

  it('dispose() without stop() queues the running session; the next start-up sends it and recovers nothing', async () => {
    const first = createHarness();
    const sessionId = first.tracker.start();
    await advance(7_000);
    first.relay.hold(); // the network never answers during dispose
    await first.tracker.dispose();
    const session = { sessionId, userId: 'player-1', durationSeconds: 7, startedAt: iso(T0), endedAt: iso(T0 + 7_000) };
    expect(first.storage.snapshot()).toEqual({ [`game-campaign:player:player-1:queue:000000000000:${sessionId}`]: session });
    expect(eventsOf(first.log, 'session:end')).toEqual([{ sessionId, reason: 'dispose', session }]);

    const relay = createFakeRelay();
    const second = createHarness({}, { storage: first.storage, relay });
    await settle();
    expect(relay.requests.map((request) => request.body)).toEqual([{ sessions: [session], sentAt: iso(T0 + 7_000) }]);
    expect(second.log).toEqual([['flushed', { results: [{ sessionId, status: 'SUCCESS' }] }]]);
  });

  it('without platform.lock, every record of another instance is recovered at construction', async () => {
    const storage = createMemoryStorage();
    const relay = createFakeRelay();
    const withoutLock = (): Platform => {
      const { lock: _lock, ...rest } = createMemoryPlatform({ storage, fetch: relay.fetch });
      return rest;
    };
    const first = new PlaytimeTracker({ platform: withoutLock(), userId: 'player-1', relay: { url: RELAY_URL } });
    const sessionId = first.start();
    await advance(16_000);
    const second = new PlaytimeTracker({ platform: withoutLock(), userId: 'player-1', relay: { url: RELAY_URL } });
    const log = recordEvents(second);
    await settle();
    expect(eventsOf(log, 'session:end').map((event) => [event.sessionId, event.reason, event.session.durationSeconds])).toEqual([[sessionId, 'recovered', 15]]);
  });

  it('a stored record that breaks the rules (a bad creatorKey) is dropped as invalid at recovery, never queued', async () => {
    const storage = createMemoryStorage();
    await storage.set('game-campaign:player:player-1:running:s-1', { sessionId: 's-1', userId: 'player-1', creatorKey: 'bad', owner: 'gone', startedAtMs: T0, spanMs: 5_000, playedMs: 5_000 });
    const { log } = createHarness({}, { storage });
    await settle();
    expect(eventsOf(log, 'dropped')).toEqual([
      {
        sessionId: 's-1',
        reason: 'invalid',
        session: { sessionId: 's-1', userId: 'player-1', durationSeconds: 5, startedAt: iso(T0), endedAt: iso(T0 + 5_000), creatorKey: 'bad' },
        error: 'creatorKey must be exactly 5 uppercase letters or digits',
        details: [{ path: 'creatorKey', message: 'must be exactly 5 uppercase letters or digits' }],
      },
    ]);
    expect(storage.snapshot()).toEqual({});
  });
});

describe('storage failures', () => {
  /** A tracker over `storage` that played a 2 s session and stopped: its relay, events and the session's id. */
  async function playedOver(storage: KeyValueStorage) {
    const relay = createFakeRelay();
    const platform = createMemoryPlatform({ storage, fetch: relay.fetch });
    const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: RELAY_URL } });
    const log = recordEvents(tracker);
    const sessionId = tracker.start();
    await advance(2_000);
    await tracker.stop();
    return { relay, tracker, log, sessionId };
  }

  it('a failed write emits error (kind storage) and the session is still sent from memory', async () => {
    const inner = createMemoryStorage();
    const failure = new Error('quota exceeded');
    const storage: KeyValueStorage = { ...inner, set: async (key, value) => (key.includes(':queue:') ? Promise.reject(failure) : inner.set(key, value)) };
    const { relay, tracker, log, sessionId } = await playedOver(storage);
    expect(eventsOf(log, 'error')).toEqual([{ kind: 'storage', error: failure }]);
    await tracker.flush();
    expect(relay.requests.map((request) => request.body.sessions.map((s) => s.sessionId))).toEqual([[sessionId]]);
    expect(eventsOf(log, 'flushed')).toEqual([{ results: [{ sessionId, status: 'SUCCESS' }] }]);
    expect(inner.snapshot()).toEqual({});
  });

  it('storage that fails every write and delete (a missing native module): an acknowledged session leaves the queue, flushed once, never sent again', async () => {
    const inner = createMemoryStorage();
    const failure = new Error('Native module is null, cannot create db');
    const storage: KeyValueStorage = { ...inner, set: async () => Promise.reject(failure), delete: async () => Promise.reject(failure) };
    const { relay, tracker, log, sessionId } = await playedOver(storage);
    await tracker.flush();
    await advance(5 * 60_000); // ten flush intervals
    await tracker.flush();
    expect(relay.requests.map((request) => request.body.sessions.map((s) => s.sessionId))).toEqual([[sessionId]]);
    expect(eventsOf(log, 'flushed')).toEqual([{ results: [{ sessionId, status: 'SUCCESS' }] }]);
    await tracker.dispose();
  });
});
