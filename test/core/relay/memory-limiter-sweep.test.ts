// The relay's memory limiters (rate limit, failed logins, daily cap) on a runtime whose timers die with the request
// that set them, as on a Cloudflare Worker: rate-limiter-flexible's memory store deletes an expired key only from a
// `setTimeout` set when the key was made, and workerd never runs a timer of a request that has ended (a probe of
// workerd 1.20261117.1: a key set by a finished request was still there long after its timer was due). On d65db0b
// every client address, player and player-day the relay ever saw stayed in the isolate's memory; an attacker
// rotating addresses grew it without bound.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultFailedAuthLimiter } from '../../../core/relay/failed-auth.js';
import { defaultRateLimiter } from '../../../core/relay/rate-limit.js';
import { RateLimiterMemory } from '../../../core/relay/limiters.js';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** How many keys the limiter holds in memory (rate-limiter-flexible's store, read for the test). */
function keysHeld(limiter: RateLimiterAbstract): number {
  return (limiter as unknown as { _memoryStorage: { _storage: Map<string, unknown> } })._memoryStorage._storage.size;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-26T12:00:00Z') });
  // A Worker's request ended: its timers never fire.
  vi.stubGlobal('setTimeout', () => 0);
  vi.stubGlobal('clearTimeout', () => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('memory limiters whose expiry timers never fire (a Cloudflare Worker)', () => {
  it.each([
    ['failed logins per address (60 s)', defaultFailedAuthLimiter, 61_000],
    ['requests per player (1 s)', defaultRateLimiter, 11_000],
  ] as const)('%s: expired keys are dropped, so memory holds only the keys still counting', async (_name, create, later) => {
    const limiter = create();
    for (let i = 0; i < 1000; i++) await limiter.consume(`10.0.${i >> 8}.${i & 255}`, 1);
    expect(keysHeld(limiter)).toBe(1000);
    vi.advanceTimersByTime(later);
    await limiter.consume('10.9.9.9', 1);
    expect(keysHeld(limiter)).toBe(1);
  });

  it('reads a key whose time is over as absent between sweeps (the failed-login limit and the daily cap read before they count)', async () => {
    const limiter = new RateLimiterMemory({ points: 2, duration: 1 });
    await limiter.consume('a', 2);
    await expect(limiter.get('a')).resolves.toMatchObject({ consumedPoints: 2 });
    vi.advanceTimersByTime(5_000); // past the key's second, before the next sweep is due
    await expect(limiter.get('a')).resolves.toBeNull();
    await expect(limiter.consume('a', 1)).resolves.toMatchObject({ consumedPoints: 1 });
  });

  it('a key still counting is kept and still limits', async () => {
    const limiter = new RateLimiterMemory({ points: 2, duration: 60 });
    await limiter.consume('a', 1);
    await limiter.consume('a', 1);
    vi.advanceTimersByTime(30_000);
    await expect(limiter.consume('b', 1)).resolves.toBeDefined();
    await expect(limiter.consume('a', 1)).rejects.toMatchObject({ consumedPoints: 3 });
    vi.advanceTimersByTime(31_000);
    await expect(limiter.consume('a', 1)).resolves.toMatchObject({ consumedPoints: 1 });
  });
});
