import { afterEach, describe, expect, it, vi } from 'vitest';
import { RelayAuthError } from '../../../core/http/errors.js';
import type { FetchLike } from '../../../core/platform.js';
import { playtimeBody, playtimeUrl, sendToRelay, type RelayTarget } from '../../../core/relay/sender.js';
import type { BulkPlaytimeItem } from '../../../core/schema/playtime.js';
import { bulkResult, errorAnswer, json } from '../tracker/fake-relay.js';

afterEach(() => void vi.useRealTimers());

const session: BulkPlaytimeItem = { sessionId: 's-1', userId: 'u-1', durationSeconds: 61, startedAt: '2025-01-01T12:00:00.000Z', endedAt: '2025-01-01T12:01:01.000Z' };
const result = bulkResult([{ sessionId: 's-1', status: 'SUCCESS' }]);

/** A fetch that answers `answer` and keeps what it was called with. */
function recorder(answer: (init: RequestInit | undefined) => Promise<Response> | Response = () => json(200, { data: result })) {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fetch: FetchLike = async (input, init) => {
    calls.push({ url: String(input), init });
    return answer(init);
  };
  return { fetch, calls };
}

/** The device's wall clock when sending: 2025-01-02T00:00:00.000Z. */
const NOW = Date.UTC(2025, 0, 2);
const sentAt = new Date(NOW).toISOString();
/** sendToRelay's parameters by name (it takes them positionally), each test giving what it varies. */
interface SendOptions {
  relay: RelayTarget;
  sessions: BulkPlaytimeItem[];
  isTest?: boolean;
  keepalive?: boolean;
  signal?: AbortSignal;
  resolvedHeaders?: Record<string, string>;
  now: () => number;
  timeoutMs?: number;
}
const send = (fetch: FetchLike, extra: Partial<SendOptions> = {}) => {
  const o: SendOptions = { relay: { url: 'https://game.example/campaign' }, sessions: [session], now: () => NOW, ...extra };
  return sendToRelay({ fetch, now: o.now }, o.relay, o.sessions, o.isTest, o.keepalive, o.signal, o.resolvedHeaders, o.timeoutMs);
};

describe('the request', () => {
  it('POSTs the batch as JSON to {relay.url}/playtime/sessions with the game headers', async () => {
    const { fetch, calls } = recorder();
    await send(fetch, { relay: { url: 'https://game.example/campaign/', headers: { authorization: 'Bearer t', 'Content-Type': 'text/plain' } } });
    expect(calls).toEqual([
      {
        url: 'https://game.example/campaign/playtime/sessions',
        init: { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify({ sessions: [session], sentAt }), signal: expect.any(AbortSignal) },
      },
    ]);
  });

  it('evaluates a headers function for every request, and sends keepalive and isTest only when asked', async () => {
    const { fetch, calls } = recorder();
    let n = 0;
    const headers = async () => ({ 'x-token': `t${++n}` });
    await send(fetch, { relay: { url: 'https://game.example/campaign', headers }, keepalive: true, isTest: true });
    await send(fetch, { relay: { url: 'https://game.example/campaign', headers } });
    expect(calls.map((call) => [call.init?.headers, call.init?.keepalive, call.init?.body])).toEqual([
      [{ 'x-token': 't1', 'content-type': 'application/json' }, true, JSON.stringify({ sessions: [session], isTest: true, sentAt })],
      [{ 'x-token': 't2', 'content-type': 'application/json' }, undefined, JSON.stringify({ sessions: [session], sentAt })],
    ]);
  });

  // Before: a Headers (a JavaScript game's `headers` function may build one) was read by key and sent no header at all,
  // so every batch was refused 401; an array of pairs sent its indexes as header names.
  it('sends game headers given as a Headers or pairs, as fetch takes them, names lower-cased', async () => {
    const { fetch, calls } = recorder();
    const relayHeaders = [() => new Headers({ 'X-Token': 't1', 'Content-Type': 'text/plain' }), () => [['X-Token', 't2']]] as unknown as Array<() => Record<string, string>>;
    for (const headers of relayHeaders) await send(fetch, { relay: { url: 'https://game.example/campaign', headers } });
    expect(calls.map((call) => call.init?.headers)).toEqual([
      { 'x-token': 't1', 'content-type': 'application/json' },
      { 'x-token': 't2', 'content-type': 'application/json' },
    ]);
  });

  it('sends the wall clock as sentAt, read when sending; a clock that gives no time sends none (the relay then takes the times as sent)', async () => {
    const { fetch, calls } = recorder();
    let clock = NOW;
    await send(fetch, { now: () => clock });
    clock = NOW + 90_000;
    await send(fetch, { now: () => clock });
    await send(fetch, { now: () => Number.NaN });
    expect(calls.map((call) => JSON.parse(String(call.init?.body)).sentAt)).toEqual([sentAt, new Date(NOW + 90_000).toISOString(), undefined]);
  });

  it('rejects with the error of a headers function that throws (not an HTTP outcome)', async () => {
    const { fetch, calls } = recorder();
    const failure = new Error('not logged in');
    await expect(send(fetch, { relay: { url: 'https://game.example/campaign', headers: () => { throw failure; } } })).rejects.toBe(failure);
    expect(calls).toEqual([]);
  });

  it('playtimeBody and playtimeUrl give exactly what goes on the wire', () => {
    expect(playtimeBody([session])).toBe(`{"sessions":[${JSON.stringify(session)}]}`);
    expect(playtimeBody([], false)).toBe('{"sessions":[],"isTest":false}');
    expect(playtimeBody([], undefined, sentAt)).toBe(`{"sessions":[],"sentAt":"${sentAt}"}`);
    expect(playtimeUrl('https://g.example/relay//')).toBe('https://g.example/relay/playtime/sessions');
  });
});

describe('the outcome', () => {
  const cases: Array<[string, () => Response, unknown]> = [
    ['200 with a bulk result', () => json(200, { data: result }), { kind: 'results', result }],
    ['201 with a bulk result', () => json(201, { data: result }), { kind: 'results', result }],
    ['200 with another body', () => json(200, { data: { ok: true } }), { kind: 'transient', status: 200, reason: 'the relay answered with an unexpected body' }],
    ['200 with HTML', () => new Response('<html>', { status: 200 }), { kind: 'transient', status: 200, reason: 'the relay answered with an unexpected body' }],
    [
      '400 VALIDATION_ERROR',
      () => errorAnswer(400, 'VALIDATION_ERROR', 'Invalid request', {}, [{ path: 'sessions.0.creatorKey', message: 'bad' }]),
      { kind: 'invalid', status: 400, message: 'Invalid request', details: [{ path: 'sessions.0.creatorKey', message: 'bad' }] },
    ],
    ['422 without details', () => errorAnswer(422, 'VALIDATION_ERROR', 'Unprocessable'), { kind: 'invalid', status: 422, message: 'Unprocessable', details: [] }],
    [
      '400 BAD_REQUEST (about the request, not its sessions)',
      () => errorAnswer(400, 'BAD_REQUEST', 'Content-Type must be application/json'),
      { kind: 'transient', status: 400, reason: '400 BAD_REQUEST: Content-Type must be application/json' },
    ],
    ['400 from a proxy (not the error body)', () => new Response('Bad Request', { status: 400 }), { kind: 'transient', status: 400, reason: 'the relay answered 400' }],
    ['413', () => errorAnswer(413, 'BAD_REQUEST', 'too large'), { kind: 'too-large' }],
    ['429 with Retry-After seconds', () => errorAnswer(429, 'RATE_LIMITED', 'slow down', { 'retry-after': '7' }), { kind: 'transient', status: 429, reason: '429 RATE_LIMITED: slow down', retryAfterMs: 7_000 }],
    ['503 with Retry-After', () => errorAnswer(503, 'INTERNAL_ERROR', 'down', { 'retry-after': '2' }), { kind: 'transient', status: 503, reason: '503 INTERNAL_ERROR: down', retryAfterMs: 2_000 }],
    ['500 without Retry-After', () => new Response('', { status: 500 }), { kind: 'transient', status: 500, reason: 'the relay answered 500' }],
    ['408', () => new Response('', { status: 408 }), { kind: 'transient', status: 408, reason: 'the relay answered 408' }],
  ];
  for (const [name, answer, expected] of cases) {
    it(`${name} -> ${(expected as { kind: string }).kind}`, async () => {
      expect(await send(recorder(answer).fetch)).toEqual(expected);
    });
  }

  it('503 with an HTTP-date Retry-After counts from the given clock', async () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    const answer = () => errorAnswer(503, 'INTERNAL_ERROR', 'down', { 'retry-after': new Date(now + 90_000).toUTCString() });
    expect(await send(recorder(answer).fetch, { now: () => now })).toMatchObject({ kind: 'transient', retryAfterMs: 90_000 });
  });

  it('401 and 403 -> auth, with the typed error', async () => {
    const unauthorized = await send(recorder(() => errorAnswer(401, 'UNAUTHORIZED', 'bad token')).fetch);
    expect(unauthorized).toMatchObject({ kind: 'auth', status: 401, error: { code: 'UNAUTHORIZED', message: 'bad token', status: 401 } });
    expect(unauthorized.kind === 'auth' && unauthorized.error).toBeInstanceOf(RelayAuthError);
    const forbidden = await send(recorder(() => new Response('no', { status: 403 })).fetch);
    expect(forbidden.kind === 'auth' && forbidden.error).toBeInstanceOf(RelayAuthError);
  });

  it('a network error -> transient, never a throw', async () => {
    const failure = new TypeError('fetch failed');
    const fetch: FetchLike = () => Promise.reject(failure);
    // The fetch's own error rides along: a host that refuses a request (a mini-game's domain list) says why in it.
    expect(await send(fetch)).toEqual({ kind: 'transient', reason: 'Connection failed: fetch failed', error: failure });
  });

  it('no answer within timeoutMs -> transient, and the request is aborted', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const fetch: FetchLike = (_input, init) => {
      signal = init?.signal ?? undefined;
      return new Promise(() => undefined); // ignores its signal, as some XHR polyfills do
    };
    const outcome = send(fetch, { timeoutMs: 5_000 });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ kind: 'transient', reason: 'No response within 5000 ms' });
    expect(signal?.aborted).toBe(true);
  });

  it('the caller aborting -> transient (aborted)', async () => {
    const controller = new AbortController();
    let sent!: () => void;
    const sending = new Promise<void>((resolve) => (sent = resolve));
    const fetch: FetchLike = (_input, init) =>
      new Promise((_, reject) => (sent(), init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))));
    const outcome = send(fetch, { signal: controller.signal });
    await sending; // the request is in flight
    controller.abort();
    expect(await outcome).toEqual({ kind: 'transient', reason: 'aborted' });
    // Aborted before the headers were resolved: the wait for them (a function of the game's may never settle) rejects.
    await expect(send(fetch, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('the caller aborting while relay.headers() is awaited: rejects with the signal\'s reason rather than waiting for a function that never settles', async () => {
    const controller = new AbortController();
    const fetch: FetchLike = async () => new Response(null, { status: 500 });
    const outcome = sendToRelay({ fetch, now: () => NOW }, { url: 'https://game.example/campaign', headers: () => new Promise(() => {}) }, [], undefined, undefined, controller.signal);
    controller.abort(new Error('disposed'));
    await expect(outcome).rejects.toThrow('disposed');
  });
});
