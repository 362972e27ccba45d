/**
 * rate-limiter-flexible's two limiters the relay builds, each imported from its own file. The package's index
 * also loads `RateLimiterCluster`, which requires Node's `cluster` and `crypto`: a Worker dated before
 * 2025-12-04 has no `node:cluster` even with `nodejs_compat` (workerd 1.20261117.1 refuses the import at
 * 2025-12-03), and an esbuild build for a Worker or the edge cannot resolve either. Through these files the
 * server entry reaches no Node built-in at all, so a Worker needs no `nodejs_compat` for it.
 */
/// <reference path="./limiter-files.d.ts" />
import type * as Flexible from 'rate-limiter-flexible';
import Memory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import Redis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';

/** The longest between two sweeps of expired keys, in ms. */
export const MEMORY_SWEEP_INTERVAL_MS = 10_000;

/** rate-limiter-flexible's memory store, as read for the sweep (its 11.x layout; anything else is left alone). */
interface MemoryStore {
  _storage?: unknown;
}
interface StoredRecord {
  expiresAt?: unknown;
  timeoutId?: unknown;
}

/**
 * rate-limiter-flexible's `RateLimiterMemory`, which also drops expired keys itself. Its store deletes a key only from
 * a `setTimeout` set when the key was made, and a Cloudflare Worker never runs a timer of a request that has ended:
 * there every client address, player and player-day the relay saw would stay in the isolate's memory. Each
 * `consume` and `get` sweep the keys whose time is over, at most every {@link MEMORY_SWEEP_INTERVAL_MS}
 * (`Map.prototype.forEach`, deleting as it goes: allowed by the standard).
 */
class SweptRateLimiterMemory extends Memory {
  #nextSweepAt = 0;

  override consume(key: string | number, pointsToConsume?: number, options?: { [key: string]: unknown }): Promise<Flexible.RateLimiterRes> {
    this.#sweep();
    return super.consume(key, pointsToConsume, options);
  }

  /** The key's count, or null once its time is over (the store's own `get` returns it until its timer ran). */
  override async get(key: string | number, options?: { [key: string]: unknown }): Promise<Flexible.RateLimiterRes | null> {
    this.#sweep();
    const counted = await super.get(key, options);
    return counted && this.duration > 0 && counted.msBeforeNext <= 0 ? null : counted;
  }

  #sweep(): void {
    const now = Date.now();
    if (now < this.#nextSweepAt) return;
    this.#nextSweepAt = now + MEMORY_SWEEP_INTERVAL_MS;
    const storage = (this as unknown as { _memoryStorage?: MemoryStore })._memoryStorage?._storage;
    if (!(storage instanceof Map)) return;
    storage.forEach((record: StoredRecord | null | undefined, key) => {
      if (!record || typeof record.expiresAt !== 'number' || record.expiresAt > now) return;
      // A key without expiry has a null timer; clearing null or undefined does nothing.
      clearTimeout(record.timeoutId as ReturnType<typeof setTimeout> | undefined);
      storage.delete(key);
    });
  }
}

/** One process's limiter, counting in memory (expired keys swept, see {@link SweptRateLimiterMemory}). */
export const RateLimiterMemory: typeof Flexible.RateLimiterMemory = SweptRateLimiterMemory;
/** True for a rate-limiter-flexible `RateLimiterMemory` (the studio's or the relay's): it counts in this process only. */
export function countsInMemory(limiter: object): boolean {
  return limiter instanceof Memory;
}
/** A fleet's limiter, counting in the Redis the game passes. */
export const RateLimiterRedis: typeof Flexible.RateLimiterRedis = Redis;
