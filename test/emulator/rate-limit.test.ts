// Rate limit: per API key, 50 requests/s by default (faults.rateLimitPerSecond overrides, 0 turns it off),
// 429 RATE_LIMITED with Retry-After in whole seconds. Fake timers freeze the limiter's clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { caller, emulatorAtT0 } from './helpers.js';

describe('emulator rate limit', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2025-06-01T12:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('allows 50 requests per second per key by default and answers the 51st with 429 and Retry-After', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    for (let i = 0; i < 50; i++) expect((await call('GET', '/v1/server/campaigns')).status).toBe(200);
    const limited = await call('GET', '/v1/server/campaigns');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toEqual({ status: 429, error: 'Too Many Requests', message: 'Rate limit of 50 requests per second exceeded', code: 'RATE_LIMITED' });
    expect((await call('GET', '/v1/client/creators/LUNA7', { key: emulator.clientKey })).status).toBe(200);
    vi.advanceTimersByTime(1000);
    expect((await call('GET', '/v1/server/campaigns')).status).toBe(200);
  });

  it('uses faults.rateLimitPerSecond, changeable at run time, and does not process limited requests', async () => {
    const emulator = emulatorAtT0({ faults: { rateLimitPerSecond: 2 } });
    const call = caller(emulator);
    const session = (id: string) => ({ sessionId: id, userId: 'u', durationSeconds: 1, startedAt: '2025-06-01T11:59:59.000Z', endedAt: '2025-06-01T12:00:00.000Z' });
    expect((await call('POST', '/v1/server/playtime/sessions', { body: session('a') })).status).toBe(201);
    expect((await call('POST', '/v1/server/playtime/sessions', { body: session('b') })).status).toBe(201);
    const limited = await call('POST', '/v1/server/playtime/sessions', { body: session('c') });
    expect(limited.status).toBe(429);
    expect(emulator.state().sessions.map((s) => s.sessionId)).toEqual(['a', 'b']);
    emulator.setFaults({ rateLimitPerSecond: 0 });
    for (let i = 0; i < 60; i++) expect((await call('GET', '/v1/server/campaigns')).status).toBe(200);
  });

  it('does not count requests without a valid key (they answer 401)', async () => {
    const emulator = emulatorAtT0({ faults: { rateLimitPerSecond: 1 } });
    const call = caller(emulator);
    for (let i = 0; i < 3; i++) expect((await call('GET', '/v1/server/campaigns', { key: 'x:y' })).status).toBe(401);
    expect((await call('GET', '/v1/server/campaigns')).status).toBe(200);
    expect((await call('GET', '/v1/server/campaigns')).status).toBe(429);
  });
});
