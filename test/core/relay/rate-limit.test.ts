import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { read, relayOverFakeService, relayRequest, SESSION_START_MS, sessions } from './fake-service.js';

const post = (userId: string, n = 0) => relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions(userId, 1, n) }, userId);

afterEach(() => {
  vi.useRealTimers();
});

describe('per-user rate limit', () => {
  it('answers the 21st request of a user within a second with 429 RATE_LIMITED by default', async () => {
    vi.useFakeTimers({ now: SESSION_START_MS + 3_600_000 });
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 0 });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const answer = relay.fetch(post('alice', i));
      await vi.advanceTimersByTimeAsync(0);
      statuses.push((await answer).status);
    }
    expect(statuses).toEqual([...Array(20).fill(200), 429]);
    expect(bulkCalls()).toHaveLength(20);
    const other = relay.fetch(post('bob'));
    await vi.advanceTimersByTimeAsync(0);
    expect((await other).status).toBe(200);
    await vi.advanceTimersByTimeAsync(1000);
    const later = relay.fetch(post('alice', 99));
    await vi.advanceTimersByTimeAsync(0);
    expect((await later).status).toBe(200);
  });

  it('says when to retry in whole seconds: the ceiling of msBeforeNext, at least 1', async () => {
    vi.useFakeTimers({ now: SESSION_START_MS + 3_600_000 });
    const rateLimiter = new RateLimiterMemory({ points: 1, duration: 10 });
    const { relay, fake } = relayOverFakeService({ rateLimiter, coalesceWindowMs: 0 });
    const first = relay.fetch(post('alice'));
    await vi.advanceTimersByTimeAsync(0);
    expect((await first).status).toBe(200);
    await vi.advanceTimersByTimeAsync(2500);
    const answer = await read(await relay.fetch(post('alice', 1)));
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('8'); // 7.5 s left
    expect(answer.body).toEqual({ status: 429, error: 'Too Many Requests', code: 'RATE_LIMITED', message: 'Too many requests for this user' });
    await vi.advanceTimersByTimeAsync(7400);
    expect((await relay.fetch(post('alice', 2))).headers.get('retry-after')).toBe('1'); // 0.1 s left
    expect(fake.calls).toHaveLength(1);
  });

  it('takes no point for a request that fails authentication', async () => {
    const rateLimiter = new RateLimiterMemory({ points: 1, duration: 60 });
    const { relay } = relayOverFakeService({ rateLimiter, coalesceWindowMs: 0 });
    expect((await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [] }))).status).toBe(401);
    expect((await relay.fetch(post('alice'))).status).toBe(200);
  });

  it('answers 503 with Retry-After when the limiter store fails', async () => {
    const broken = { consume: () => Promise.reject(new Error('redis down')) } as unknown as RateLimiterAbstract;
    const { relay, fake } = relayOverFakeService({ rateLimiter: broken });
    const answer = await read(await relay.fetch(post('alice')));
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ status: 503, error: 'Service Unavailable', code: 'INTERNAL_ERROR', message: 'The rate limit store is unavailable; retry later' });
    expect(['1', '2', '3', '4', '5']).toContain(answer.headers.get('retry-after'));
    expect(fake.calls).toEqual([]);
  });

  it('keys the limiter by the authenticated userId and takes one point per request', async () => {
    const consumed: Array<[string | number, number | undefined]> = [];
    const spy = { consume: (key: string | number, points?: number) => (consumed.push([key, points]), Promise.resolve({})) } as unknown as RateLimiterAbstract;
    const { relay } = relayOverFakeService({ rateLimiter: spy, coalesceWindowMs: 0 });
    await relay.fetch(post('alice'));
    await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE' }, 'bob'));
    expect(consumed).toEqual([
      ['alice', 1],
      ['bob', 1],
    ]);
  });
});
