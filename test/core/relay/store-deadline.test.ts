/**
 * withStoreDeadline (core/relay/store-connection.ts) over a store whose answer comes after the deadline. The store
 * stands for rate-limiter-flexible's RateLimiterRedis: `consume(key, points)` resolves with a RateLimiterRes when
 * taken and rejects with one when over the limit (the points counted all the same), or with an Error when Redis
 * fails; `reward(key, points)` gives points back (rate-limiter-flexible lib/RateLimiterStoreAbstract.js).
 */
import { describe, expect, it, vi } from 'vitest';
import { withStoreDeadline } from '../../../core/relay/store-connection.js';

function lateStore() {
  let settle!: { resolve: (value: unknown) => void; reject: (reason: unknown) => void };
  const store = {
    consume: vi.fn((_key: string, _points?: number) => new Promise((resolve, reject) => (settle = { resolve, reject }))),
    reward: vi.fn((_key: string, _points?: number) => Promise.resolve({ consumedPoints: 0 })),
  };
  return { store, settle: () => settle };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a consume answered past the deadline', () => {
  it('rejects at the deadline; with undoLateConsume, what it took is given back when it lands', async () => {
    const { store, settle } = lateStore();
    const timed = withStoreDeadline(store, 5, true);
    await expect(timed.consume('alice:2026-11-27', 600)).rejects.toThrow('The store did not answer within 5 ms');
    settle().resolve({ consumedPoints: 600, remainingPoints: 3000 });
    await flush();
    expect(store.reward.mock.calls).toEqual([['alice:2026-11-27', 600]]);
  });

  it('a late refusal (counted by the store all the same) is given back too; a late Error is not', async () => {
    const refused = lateStore();
    await expect(withStoreDeadline(refused.store, 5, true).consume('bob:2026-11-27', 700)).rejects.toThrow(Error);
    refused.settle().reject({ consumedPoints: 3700, msBeforeNext: 1000 });
    await flush();
    expect(refused.store.reward.mock.calls).toEqual([['bob:2026-11-27', 700]]);

    const failed = lateStore();
    await expect(withStoreDeadline(failed.store, 5, true).consume('carol:2026-11-27', 10)).rejects.toThrow(Error);
    failed.settle().reject(new Error('Connection is closed.'));
    await flush();
    expect(failed.store.reward).not.toHaveBeenCalled();
  });

  it('without undoLateConsume (the rate limit, the marks), nothing is given back', async () => {
    const { store, settle } = lateStore();
    await expect(withStoreDeadline(store, 5).consume('alice', 1)).rejects.toThrow(Error);
    settle().resolve({ consumedPoints: 1 });
    await flush();
    expect(store.reward).not.toHaveBeenCalled();
  });

  it('a consume answered in time keeps what it took', async () => {
    const { store, settle } = lateStore();
    const call = withStoreDeadline(store, 1_000, true).consume('alice', 5);
    settle().resolve({ consumedPoints: 5 });
    await expect(call).resolves.toEqual({ consumedPoints: 5 });
    await flush();
    expect(store.reward).not.toHaveBeenCalled();
  });
});
