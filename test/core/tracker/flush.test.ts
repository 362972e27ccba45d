import type { BulkPlaytimeItem } from '../../../core/schema/playtime.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform, createMemoryStorage, type MemoryStorage } from '../../../core/memory-platform.js';
import { PlaytimeTracker } from '../../../core/tracker/index.js';
import { createFakeRelay } from './fake-relay.js';
import { PLAYTIME_URL, RELAY_URL, T0, advance, item, key, createHarness, eventsOf, iso, recordEvents, settle, useFakeClock, type Harness } from './harness.js';

beforeEach(useFakeClock);
afterEach(() => void vi.useRealTimers());


/** Stores sessions as a previous run left them in the queue. */
async function leftInQueue(storage: MemoryStorage, sessions: BulkPlaytimeItem[]): Promise<void> {
  for (const [seq, session] of sessions.entries()) await storage.set(key(seq, session.sessionId), session);
}

/** Plays one session of `seconds` and stops it. */
async function play(harness: Harness, seconds: number, options: Parameters<Harness['tracker']['start']>[0] = {}): Promise<string> {
  const sessionId = harness.tracker.start(options);
  await advance(seconds * 1_000);
  await harness.tracker.stop();
  return sessionId;
}

describe('flush triggers', () => {
  it('every flushIntervalMs in the foreground, POSTing the exact body with the game headers', async () => {
    let calls = 0;
    // A page (its lifecycle has the page exit): the headers are asked for as a session starts.
    const harness = createHarness({ relay: { url: RELAY_URL, headers: async () => ({ authorization: `Bearer token-${++calls}` }) } }, { backgroundMayBeFinal: true });
    const sessionId = await play(harness, 10);
    await advance(19_999);
    expect(harness.relay.requests).toEqual([]);
    await advance(1);
    expect(harness.relay.requests).toEqual([
      {
        url: PLAYTIME_URL,
        method: 'POST',
        // token-1 was asked for when the session started, token-2 at its first checkpoint (1 s; each kept for a request
        // sent as the page is left).
        headers: { authorization: 'Bearer token-3', 'content-type': 'application/json' },
        // sentAt: the device's clock when sending, by which the relay dates the sessions.
        rawBody: JSON.stringify({ sessions: [{ sessionId, userId: 'player-1', durationSeconds: 10, startedAt: iso(T0), endedAt: iso(T0 + 10_000) }], sentAt: iso(T0 + 30_000) }),
        bytes: expect.any(Number),
        body: { sessions: [{ sessionId, userId: 'player-1', durationSeconds: 10, startedAt: iso(T0), endedAt: iso(T0 + 10_000) }], sentAt: iso(T0 + 30_000) },
        keepalive: false,
        at: T0 + 30_000,
      },
    ]);
    expect(harness.log.at(-1)).toEqual(['flushed', { results: [{ sessionId, status: 'SUCCESS' }] }]);
    expect(harness.storage.snapshot()).toEqual({});
  });

  it('where the background is never final (no page exit: apps, engines), asks for the game headers only to send', async () => {
    let calls = 0;
    const harness = createHarness({ relay: { url: RELAY_URL, headers: async () => ({ authorization: `Bearer token-${++calls}` }) } });
    await play(harness, 10);
    expect(calls).toBe(0);
    await advance(20_000);
    expect(harness.relay.requests.map((request) => request.headers)).toEqual([{ authorization: 'Bearer token-1', 'content-type': 'application/json' }]);
  });

  it('not on the interval while in the background', async () => {
    const harness = createHarness({ backgroundTimeoutMs: 600_000 });
    harness.platform.background();
    await settle();
    await leftInQueue(harness.storage, [item('bg-1')]);
    await advance(120_000);
    expect(harness.relay.requests).toEqual([]);
    harness.platform.foreground();
    await advance(30_000);
    expect(harness.relay.requests.map((r) => r.body.sessions.map((s) => s.sessionId))).toEqual([['bg-1']]);
  });

  it('as soon as flushAt sessions are queued', async () => {
    const harness = createHarness({ flushAt: 3 });
    const ids = [await play(harness, 1), await play(harness, 1)];
    expect(harness.relay.requests).toEqual([]);
    ids.push(await play(harness, 1));
    await settle();
    expect(harness.relay.requests.map((r) => r.body.sessions.map((s) => s.sessionId))).toEqual([ids]);
  });

  it('on going to the background where the page may be left, as keepalive requests whose bodies stay under 64 KiB', async () => {
    const harness = createHarness({ flushAt: 1_000, flushIntervalMs: 10_000_000 }, { backgroundMayBeFinal: true });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await play(harness, 1, { metadata: { notes: 'x'.repeat(4_000), i } }));
    expect(harness.relay.requests).toEqual([]);
    harness.platform.background();
    await settle();
    const requests = harness.relay.requests;
    // The page's exit: the newest session alone, then what else fits its body; then the flush's chunks.
    expect(requests.length).toBe(4);
    expect(requests[0]!.body.sessions.map((s) => s.sessionId)).toEqual([ids[ids.length - 1]]);
    for (const request of requests) {
      expect(request.keepalive).toBe(true);
      expect(request.bytes).toBeLessThan(64 * 1024);
    }
    // each of the flush's chunks is as full as it can be: the next session would not have fitted
    const flushed = requests.slice(2);
    for (const [index, request] of flushed.slice(0, -1).entries()) {
      const next = flushed[index + 1]!.body.sessions[0]!;
      expect(request.bytes + 1 + new TextEncoder().encode(JSON.stringify(next)).length).toBeGreaterThanOrEqual(64 * 1024);
    }
    // Each once (the page's exit request sends the newest first, from memory; the flush the rest).
    expect(requests.flatMap((r) => r.body.sessions.map((s) => s.sessionId)).sort()).toEqual([...ids].sort());
    expect(harness.storage.snapshot()).toEqual({});
  });

  it('on going to the background with a backlog whose exit requests hold the page’s 64 KiB: what no keepalive body may carry then goes at once as an ordinary request', async () => {
    const harness = createHarness({ flushAt: 1_000, flushIntervalMs: 10_000_000 }, { backgroundMayBeFinal: true });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await play(harness, 1, { metadata: { notes: 'x'.repeat(4_000), i } }));
    // The relay answers slowly: the exit's keepalive bodies stay in flight while the flush after them reads the queue.
    const answer = harness.relay.hold();
    harness.platform.background();
    await settle();
    const requests = harness.relay.requests;
    // The exit: the newest alone, then what else it holds that fits beside it; the flush: the rest, ordinary.
    expect(requests.map((request) => request.keepalive)).toEqual([true, true, false]);
    expect(requests[0]!.bytes + requests[1]!.bytes).toBeGreaterThan(60 * 1024);
    expect(requests.flatMap((r) => r.body.sessions.map((s) => s.sessionId)).sort()).toEqual([...ids].sort());
    answer();
    await settle();
    expect(harness.storage.snapshot()).toEqual({});
    expect(eventsOf(harness.log, 'flushed').flatMap((event) => event.results.map((result) => result.sessionId)).sort()).toEqual([...ids].sort());
    expect(harness.log.filter(([name]) => name === 'dropped' || name === 'error')).toEqual([]);
  });

  it('on going to the background in an app (no page exit), as one ordinary request: keepalive is for a page being left', async () => {
    const harness = createHarness({ flushAt: 1_000, flushIntervalMs: 10_000_000 });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await play(harness, 1, { metadata: { notes: 'x'.repeat(4_000), i } }));
    harness.platform.background();
    await settle();
    expect(harness.relay.requests.map((r) => [r.keepalive, r.body.sessions.map((s) => s.sessionId)])).toEqual([[false, ids]]);
    expect(harness.storage.snapshot()).toEqual({});
  });

  it('on going to the background during a flush where the page may be left: the exit request carries the in-flight one too, as keepalive', async () => {
    const harness = createHarness({ flushAt: 1_000, flushIntervalMs: 10_000_000 }, { backgroundMayBeFinal: true });
    const first = await play(harness, 1);
    const release = harness.relay.hold();
    const flushing = harness.tracker.flush();
    await settle();
    const second = await play(harness, 1);
    harness.platform.background();
    release();
    await flushing;
    await settle();
    // An ordinary request in flight dies with a page that is left: the exit sends what memory holds, newest first.
    expect(harness.relay.requests.map((r) => [r.body.sessions.map((s) => s.sessionId), r.keepalive])).toEqual([
      [[first], false],
      [[second], true],
      [[first], true],
    ]);
    expect(harness.storage.snapshot()).toEqual({});
  });

  it('when the network comes back', async () => {
    const harness = createHarness();
    harness.platform.setOnline(false);
    const sessionId = await play(harness, 2);
    await harness.tracker.flush();
    await advance(60_000);
    expect(harness.relay.requests).toEqual([]);
    harness.platform.setOnline(true);
    await settle();
    expect(harness.relay.requests.map((r) => r.body.sessions.map((s) => s.sessionId))).toEqual([[sessionId]]);
  });

  it("at start-up, for a previous run's queue, oldest first", async () => {
    const storage = createMemoryStorage();
    await leftInQueue(storage, [item('a'), item('b', { creatorKey: 'ABCDE' })]);
    const harness = createHarness({}, { storage });
    await settle();
    expect(harness.relay.requests.map((r) => r.body)).toEqual([{ sessions: [item('a'), item('b', { creatorKey: 'ABCDE' })], sentAt: iso(T0) }]);
    expect(harness.log).toEqual([['flushed', { results: [{ sessionId: 'a', status: 'SUCCESS' }, { sessionId: 'b', status: 'SUCCESS' }] }]]);
    expect(storage.snapshot()).toEqual({});
  });

  it('an empty queue sends nothing and says nothing', async () => {
    const harness = createHarness();
    await harness.tracker.flush();
    await advance(90_000);
    expect(harness.relay.requests).toEqual([]);
    expect(harness.log).toEqual([]);
  });
});

describe('batches', () => {
  it('hold at most 1000 sessions', async () => {
    const storage = createMemoryStorage();
    const sessions = Array.from({ length: 2_500 }, (_, i) => item(`s-${String(i).padStart(4, '0')}`));
    await leftInQueue(storage, sessions);
    const harness = createHarness({}, { storage });
    await settle();
    expect(harness.relay.requests.map((r) => r.body.sessions.length)).toEqual([1_000, 1_000, 500]);
    expect(harness.relay.requests.flatMap((r) => r.body.sessions)).toEqual(sessions);
    expect(storage.snapshot()).toEqual({});
  });

  it('carry isTest when the tracker is in test mode', async () => {
    const harness = createHarness({ isTest: true });
    await play(harness, 1);
    await harness.tracker.flush();
    expect(harness.relay.requests[0]?.body.isTest).toBe(true);
  });
});

describe('one flusher at a time', () => {
  it('two trackers on one storage never send concurrently, and each session goes once', async () => {
    const storage = createMemoryStorage();
    const relay = createFakeRelay();
    const quiet = { flushAt: 1_000, flushIntervalMs: 10_000_000 };
    const first = createHarness(quiet, { storage, relay });
    const second = createHarness(quiet, { storage, relay });
    const ids = [await play(first, 1), await play(second, 1), await play(first, 1), await play(second, 1)];
    const release = relay.hold();
    const flushes = [first.tracker.flush(), second.tracker.flush(), first.tracker.flush()];
    await advance(5_000);
    expect(relay.requests.length).toBe(1);
    release();
    await Promise.all(flushes);
    await settle();
    expect(relay.maxInFlight).toBe(1);
    expect(relay.requests.flatMap((r) => r.body.sessions.map((s) => s.sessionId)).sort()).toEqual([...ids].sort());
    expect([...relay.successes.values()]).toEqual([1, 1, 1, 1]);
    const flushed = [...eventsOf(first.log, 'flushed'), ...eventsOf(second.log, 'flushed')].flatMap((event) => event.results.map((r) => r.sessionId));
    expect(flushed.sort()).toEqual([...ids].sort());
  });

  it('without platform.lock, an in-process lock keeps trackers on one store apart', async () => {
    const storage = createMemoryStorage();
    const relay = createFakeRelay();
    const make = () => {
      const { lock: _lock, ...platform } = createMemoryPlatform({ storage, fetch: relay.fetch });
      return new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: RELAY_URL }, flushAt: 1_000 });
    };
    await leftInQueue(storage, [item('x'), item('y')]);
    const release = relay.hold();
    const trackers = [make(), make()];
    const logs = trackers.map(recordEvents);
    await settle();
    expect(relay.requests.length).toBe(1);
    release();
    await settle();
    expect(relay.maxInFlight).toBe(1);
    expect(relay.requests.map((r) => r.body.sessions.map((s) => s.sessionId))).toEqual([['x', 'y']]);
    expect(logs.flat().filter(([name]) => name === 'flushed')).toHaveLength(1);
  });

  it('a flush() while one runs joins it', async () => {
    const harness = createHarness();
    const sessionId = await play(harness, 1);
    const release = harness.relay.hold();
    const one = harness.tracker.flush();
    await settle();
    const two = harness.tracker.flush();
    release();
    await Promise.all([one, two]);
    expect(harness.relay.requests.map((r) => r.body.sessions.map((s) => s.sessionId))).toEqual([[sessionId]]);
    expect(eventsOf(harness.log, 'flushed')).toEqual([{ results: [{ sessionId, status: 'SUCCESS' }] }]);
  });

  it('dispose() aborts the request in flight and keeps its sessions for the next start-up', async () => {
    const harness = createHarness();
    const sessionId = await play(harness, 1);
    harness.relay.hold();
    void harness.tracker.flush();
    await settle();
    await harness.tracker.dispose();
    await settle();
    expect(Object.keys(harness.storage.snapshot())).toEqual([key(0, sessionId)]);
    expect(eventsOf(harness.log, 'flushed')).toEqual([]);
  });

  it('dispose() resolves while the flush waits on a relay.headers() that never settles; nothing is reported, the session stays queued', async () => {
    let hang = false;
    // The game's token refresh waits for ever (a login screen never shown, a promise never resolved).
    const harness = createHarness({ relay: { url: RELAY_URL, headers: () => (hang ? new Promise<Record<string, string>>(() => {}) : { authorization: 'Bearer token' }) } });
    await settle();
    const sessionId = await play(harness, 2);
    hang = true;
    void harness.tracker.flush();
    await settle();
    let disposed = false;
    void harness.tracker.dispose().then(() => (disposed = true));
    await advance(60_000);
    expect(disposed).toBe(true);
    expect(harness.relay.requests).toEqual([]);
    expect(eventsOf(harness.log, 'error')).toEqual([]);
    expect(Object.keys(harness.storage.snapshot())).toEqual([key(0, sessionId)]);
  });
});
