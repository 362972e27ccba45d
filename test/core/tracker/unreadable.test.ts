/**
 * Stored values that no longer parse (a write cut short on a text store) are set aside and reported once,
 * never met again at each flush or start-up; a read that merely failed keeps the value for the next try.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform, createMemoryStorage } from '../../../core/memory-platform.js';
import type { KeyValueStorage } from '../../../core/platform.js';
import { PlaytimeTracker } from '../../../core/tracker/index.js';
import { RELAY_URL, T0, eventsOf, iso, recordEvents, settle, useFakeClock } from './harness.js';
import { createFakeRelay } from './fake-relay.js';

beforeEach(useFakeClock);
afterEach(() => void vi.useRealTimers());

const queued = (seq: number, sessionId: string) => `game-campaign:player:player-1:queue:${String(seq).padStart(12, '0')}:${sessionId}`;
const running = (sessionId: string) => `game-campaign:player:player-1:running:${sessionId}`;
const session = (sessionId: string) => ({ sessionId, userId: 'player-1', durationSeconds: 5, startedAt: iso(T0 - 10_000), endedAt: iso(T0 - 5_000) });

/** A store whose `get` of the keys in `failing` throws `error` (as a text store's `JSON.parse` or a lost connection). */
function failingReads(inner: KeyValueStorage, failing: Set<string>, error: () => Error): KeyValueStorage {
  return { ...inner, get: (key) => (failing.has(key) ? Promise.reject(error()) : inner.get(key)) };
}

async function startTracker(storage: KeyValueStorage) {
  const relay = createFakeRelay();
  const tracker = new PlaytimeTracker({ platform: createMemoryPlatform({ storage, fetch: relay.fetch }), userId: 'player-1', relay: { url: RELAY_URL } });
  const log = recordEvents(tracker);
  await settle();
  return { tracker, relay, log };
}

describe('unreadable stored values', () => {
  it('a queued session that no longer parses is deleted and reported once; the others are sent', async () => {
    const inner = createMemoryStorage();
    for (const [seq, id] of ['bad', 'good'].entries()) await inner.set(queued(seq, id), session(id));
    const storage = failingReads(inner, new Set([queued(0, 'bad')]), () => new SyntaxError('Unexpected end of JSON input'));
    const { tracker, relay, log } = await startTracker(storage);
    await tracker.flush();
    await tracker.flush();
    expect(eventsOf(log, 'error').map(({ kind }) => kind)).toEqual(['storage']);
    expect([...relay.recorded.keys()]).toEqual(['good']);
    expect(inner.snapshot()).toEqual({});
  });

  it('a running record that no longer parses is deleted and reported at the start-up that meets it', async () => {
    const inner = createMemoryStorage();
    await inner.set(running('bad'), { owner: 'gone', userId: 'player-1', startedAtMs: T0 - 20_000, spanMs: 15_000, playedMs: 15_000 });
    const storage = failingReads(inner, new Set([running('bad')]), () => new SyntaxError('Unexpected end of JSON input'));
    const { log } = await startTracker(storage);
    expect(eventsOf(log, 'error').map(({ kind }) => kind)).toEqual(['storage']);
    expect(inner.snapshot()).toEqual({});
  });

  it('a read that failed for another reason keeps the session for the next flush', async () => {
    const inner = createMemoryStorage();
    await inner.set(queued(0, 'kept'), session('kept'));
    const failing = new Set([queued(0, 'kept')]);
    const storage = failingReads(inner, failing, () => Object.assign(new Error('the connection is closing'), { name: 'InvalidStateError' }));
    const { tracker, relay, log } = await startTracker(storage);
    await tracker.flush();
    expect(eventsOf(log, 'error').map(({ kind }) => kind)).toEqual(['storage']);
    failing.clear();
    await tracker.flush();
    expect([...relay.recorded.keys()]).toEqual(['kept']);
  });
});
