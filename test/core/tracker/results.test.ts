import type { BulkPlaytimeItem } from '../../../core/schema/playtime.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RelayAuthError } from '../../../core/http/errors.js';
import { createMemoryStorage } from '../../../core/memory-platform.js';
import { bulkResult, createFakeRelay, errorAnswer, json, type FakeRelay, type RelayAnswer } from './fake-relay.js';
import { RELAY_URL, T0, advance, item, key, createHarness, eventsOf, iso, settle, useFakeClock } from './harness.js';

beforeEach(() => {
  useFakeClock();
  vi.spyOn(Math, 'random').mockReturnValue(0.5); // jitter: half of each backoff ceiling
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});


/** A tracker whose queue holds `sessions` from a previous run; the first relay answers are `answers`. */
async function withQueue(sessions: BulkPlaytimeItem[], answers: RelayAnswer[] = [], options = {}, prepare: (relay: FakeRelay) => void = () => undefined) {
  const storage = createMemoryStorage();
  for (const [seq, session] of sessions.entries()) await storage.set(key(seq, session.sessionId), session);
  const relay = createFakeRelay().next(...answers);
  prepare(relay);
  const harness = createHarness({ flushIntervalMs: 10_000_000, ...options }, { storage, relay });
  await settle();
  return harness;
}

const ids = (harness: Awaited<ReturnType<typeof withQueue>>) => harness.relay.requests.map((r) => r.body.sessions.map((s) => s.sessionId));
const gaps = (times: number[]) => times.slice(1).map((time, i) => time - times[i]!);

describe('per-item results', () => {
  it('SUCCESS and SKIPPED leave the queue and are reported in flushed', async () => {
    const answer = json(200, { data: bulkResult([{ sessionId: 'a', status: 'SUCCESS' }, { sessionId: 'b', status: 'SKIPPED' }]) });
    const harness = await withQueue([item('a'), item('b')], [answer]);
    expect(harness.log).toEqual([['flushed', { results: [{ sessionId: 'a', status: 'SUCCESS' }, { sessionId: 'b', status: 'SKIPPED' }] }]]);
    expect(harness.storage.snapshot()).toEqual({});
  });

  it('FAILED items are dead-lettered: dropped (rejected) with the error, never sent again', async () => {
    const answer = json(200, { data: bulkResult([{ sessionId: 'a', status: 'FAILED', error: 'campaign not found' }, { sessionId: 'b', status: 'SUCCESS' }]) });
    const harness = await withQueue([item('a'), item('b')], [answer]);
    expect(harness.log).toEqual([
      ['flushed', { results: [{ sessionId: 'b', status: 'SUCCESS' }] }],
      ['dropped', { sessionId: 'a', reason: 'rejected', session: item('a'), error: 'campaign not found' }],
    ]);
    await harness.tracker.flush();
    expect(ids(harness)).toEqual([['a', 'b']]);
    expect(harness.storage.snapshot()).toEqual({});
  });

  it('two stored copies of one session in one batch (two windows both queued it) both leave the queue, reported once', async () => {
    // The fake relay answers as the service does: the first copy SUCCESS, the second SKIPPED.
    const harness = await withQueue([item('a'), item('b'), item('a')]);
    expect(harness.log).toEqual([['flushed', { results: [{ sessionId: 'a', status: 'SUCCESS' }, { sessionId: 'b', status: 'SUCCESS' }] }]]);
    expect(harness.storage.snapshot()).toEqual({});
    await harness.tracker.flush();
    expect(ids(harness)).toEqual([['a', 'b', 'a']]);
  });

  it('items the relay left out of its answer stay queued and are retried', async () => {
    const answer = json(200, { data: bulkResult([{ sessionId: 'a', status: 'SUCCESS' }]) });
    const harness = await withQueue([item('a'), item('b')], [answer]);
    expect(eventsOf(harness.log, 'flushed')).toEqual([{ results: [{ sessionId: 'a', status: 'SUCCESS' }] }]);
    expect(eventsOf(harness.log, 'error').map((e) => [e.kind, (e.error as Error).message])).toEqual([['relay', 'The relay answered 1 of 2 sessions']]);
    expect(Object.keys(harness.storage.snapshot())).toEqual([key(1, 'b')]);
    await advance(500);
    expect(ids(harness)).toEqual([['a', 'b'], ['b']]);
    expect(harness.storage.snapshot()).toEqual({});
  });
});

describe('transient failures', () => {
  it('network errors, 503, 408 and a malformed body keep everything and retry with exponential backoff and full jitter', async () => {
    const harness = await withQueue([item('a')], [{ networkError: 'connection reset' }, errorAnswer(503, 'INTERNAL_ERROR', 'down'), errorAnswer(408, 'BAD_REQUEST', 'slow'), json(200, { data: 'nonsense' })]);
    await advance(10_000);
    expect(gaps(harness.relay.requests.map((r) => r.at))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(harness.log).toEqual([
      ['error', { kind: 'relay', status: 200, error: new Error('the relay answered with an unexpected body') }],
      ['flushed', { results: [{ sessionId: 'a', status: 'SUCCESS' }] }],
    ]);
    expect(harness.storage.snapshot()).toEqual({});
  });

  it('a request the host refuses before it leaves (code REQUEST_BLOCKED: a mini-game domain list) is reported as error (relay), the data kept and retried', async () => {
    const blocked = Object.assign(new Error('game.example is not on the request domain list'), { name: 'RequestBlockedError', code: 'REQUEST_BLOCKED' });
    const harness = await withQueue([item('a')], [() => Promise.reject(blocked)]);
    await advance(1_000);
    expect(harness.log).toEqual([
      ['error', { kind: 'relay', error: blocked }],
      ['flushed', { results: [{ sessionId: 'a', status: 'SUCCESS' }] }],
    ]);
    expect(harness.storage.snapshot()).toEqual({});
  });

  it('the backoff ceiling doubles from 1 s up to 5 min, and success resets it', async () => {
    const failures = Array.from({ length: 12 }, () => errorAnswer(503, 'INTERNAL_ERROR', 'down'));
    const harness = await withQueue([item('a')], failures);
    await advance(1_200_000);
    expect(gaps(harness.relay.requests.map((r) => r.at))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 150_000, 150_000, 150_000]);
    // after the success, a new failure starts again from the first step
    await harness.storage.set(key(99, 'b'), item('b'));
    harness.relay.next(errorAnswer(503, 'INTERNAL_ERROR', 'down'));
    await harness.tracker.flush();
    const before = harness.relay.requests.length;
    await advance(500);
    expect(harness.relay.requests.length).toBe(before + 1);
    expect(harness.relay.requests.at(-1)?.body.sessions.map((s) => s.sessionId)).toEqual(['b']);
  });

  it('Retry-After is honoured: no trigger sends before it, even flush() and the network coming back', async () => {
    const harness = await withQueue([item('a')], [errorAnswer(429, 'RATE_LIMITED', 'slow down', { 'retry-after': '120' })], { flushIntervalMs: 30_000 });
    await harness.tracker.flush();
    harness.platform.setOnline(false);
    harness.platform.setOnline(true);
    await advance(119_999);
    expect(harness.relay.requests.length).toBe(1);
    await advance(1);
    expect(harness.relay.requests.map((r) => r.at)).toEqual([T0, T0 + 120_000]);
    expect(eventsOf(harness.log, 'flushed')).toEqual([{ results: [{ sessionId: 'a', status: 'SUCCESS' }] }]);
  });

  it('a Retry-After beyond the 5 min backoff ceiling (40 days) is waited for 5 min, once', async () => {
    const harness = await withQueue([item('a')], [errorAnswer(503, 'INTERNAL_ERROR', 'maintenance', { 'retry-after': String(40 * 86_400) })]);
    await advance(299_999);
    expect(harness.relay.requests.length).toBe(1);
    await advance(1);
    expect(harness.relay.requests.map((r) => r.at)).toEqual([T0, T0 + 300_000]);
    expect(eventsOf(harness.log, 'flushed')).toEqual([{ results: [{ sessionId: 'a', status: 'SUCCESS' }] }]);
  });

  it('an unexpected 4xx (no relay mounted there) keeps the data, backs off and says so', async () => {
    const harness = await withQueue([item('a')], [errorAnswer(404, 'NOT_FOUND', 'no route')]);
    expect(eventsOf(harness.log, 'error').map((e) => [e.kind, e.status, (e.error as Error).message])).toEqual([['relay', 404, '404 NOT_FOUND: no route']]);
    await advance(500);
    expect(eventsOf(harness.log, 'flushed')).toEqual([{ results: [{ sessionId: 'a', status: 'SUCCESS' }] }]);
  });
});

describe('whole-batch rejections', () => {
  it('a 400 that is not a VALIDATION_ERROR (the relay refused the request itself) keeps everything: no bisection, no drop', async () => {
    const harness = await withQueue([item('a'), item('b')], [errorAnswer(400, 'BAD_REQUEST', 'Content-Type must be application/json')]);
    expect(eventsOf(harness.log, 'error').map((e) => [e.kind, e.status, (e.error as Error).message])).toEqual([['relay', 400, '400 BAD_REQUEST: Content-Type must be application/json']]);
    expect(eventsOf(harness.log, 'dropped')).toEqual([]);
    expect(ids(harness)).toEqual([['a', 'b']]);
    expect(Object.keys(harness.storage.snapshot())).toEqual([key(0, 'a'), key(1, 'b')]);
    await advance(500);
    expect(eventsOf(harness.log, 'flushed').flatMap((e) => e.results.map((r) => r.sessionId))).toEqual(['a', 'b']);
  });

  it('a 400 is bisected: the good halves are sent, the one bad item among 8 is dropped as invalid with the details', async () => {
    const sessions = Array.from({ length: 8 }, (_, i) => item(`s${i}`, i === 5 ? { metadata: { bad: true } } : {}));
    const harness = await withQueue(sessions, [], {}, (relay) => relay.invalidIf((session) => (session.metadata?.['bad'] ? 'is not allowed here' : undefined)));
    expect(ids(harness)).toEqual([
      ['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7'],
      ['s0', 's1', 's2', 's3'],
      ['s4', 's5', 's6', 's7'],
      ['s4', 's5'],
      ['s4'],
      ['s5'],
      ['s6', 's7'],
    ]);
    expect(eventsOf(harness.log, 'dropped')).toEqual([
      { sessionId: 's5', reason: 'invalid', session: sessions[5], error: 'Invalid request', details: [{ path: 'sessions.0.metadata', message: 'is not allowed here' }] },
    ]);
    expect(eventsOf(harness.log, 'flushed').flatMap((e) => e.results.map((r) => r.sessionId))).toEqual(['s0', 's1', 's2', 's3', 's4', 's6', 's7']);
    expect(harness.storage.snapshot()).toEqual({});
  });

  it('a 413 splits the batch until it fits; a session too large alone is dropped as too-large', async () => {
    const sessions = [...Array.from({ length: 6 }, (_, i) => item(`s${i}`)), item('huge', { metadata: { blob: 'x'.repeat(2_000) } })];
    const harness = await withQueue(sessions, [], {}, (relay) =>
      relay.intercept((request) => (request.body.sessions.length > 2 || request.bytes > 1_500 ? errorAnswer(413, 'BAD_REQUEST', 'too large') : undefined)),
    );
    expect(ids(harness)).toEqual([['s0', 's1', 's2', 's3', 's4', 's5', 'huge'], ['s0', 's1', 's2', 's3'], ['s0', 's1'], ['s2', 's3'], ['s4', 's5', 'huge'], ['s4', 's5'], ['huge']]);
    expect(eventsOf(harness.log, 'dropped')).toEqual([{ sessionId: 'huge', reason: 'too-large', session: sessions[6], error: 'the relay answered 413 for this session alone' }]);
    expect(harness.storage.snapshot()).toEqual({});
  });
});

describe('authentication failures', () => {
  for (const [status, code] of [[401, 'UNAUTHORIZED'], [403, 'FORBIDDEN']] as const) {
    it(`${status} keeps everything, emits error, and retries only on the next trigger`, async () => {
      const harness = await withQueue([item('a')], [errorAnswer(status, code, 'who are you')], { flushIntervalMs: 30_000 });
      const [error] = eventsOf(harness.log, 'error');
      expect(error).toMatchObject({ kind: 'auth', status, error: { code, status, message: 'who are you' } });
      expect(error?.error).toBeInstanceOf(RelayAuthError);
      expect(Object.keys(harness.storage.snapshot())).toEqual([key(0, 'a')]);
      await advance(29_999);
      expect(harness.relay.requests.length).toBe(1);
      await advance(1);
      expect(harness.relay.requests.map((r) => r.at)).toEqual([T0, T0 + 30_000]);
      expect(harness.storage.snapshot()).toEqual({});
    });
  }

  it('a relay.headers function that throws emits error (headers), sends nothing and keeps the data', async () => {
    const failure = new Error('no token yet');
    const storage = createMemoryStorage();
    await storage.set(key(0, 'a'), item('a'));
    const harness = createHarness({ relay: { url: RELAY_URL, headers: () => Promise.reject(failure) } }, { storage });
    await settle();
    expect(harness.log).toEqual([['error', { kind: 'headers', error: failure }]]);
    expect(harness.relay.requests).toEqual([]);
    expect(Object.keys(storage.snapshot())).toEqual([key(0, 'a')]);
  });
});
