/**
 * What the bench feeds the SDK: playtime batches as a game's relay receives them, and a platform whose clock
 * the bench moves, so every tracked session lasts the spec's minimum second without waiting for it.
 */
import { randomUUID } from 'node:crypto';
import type { KeyValueStorage, Platform } from '../core/index.js';
import { createMemoryPlatform } from '../core/testing.js';
import type { RelaySession } from '../core/server/index.js';

/** A day ago: sessions of a bench never end in the future, however many seconds the bench clock adds. */
const BENCH_EPOCH = Date.now() - 24 * 3600_000;

/** `count` fresh sessions of `userId` (new sessionIds, so the service records each one). */
export function sessionsOf(userId: string, count: number): RelaySession[] {
  return Array.from({ length: count }, (_, i) => {
    const startedAt = BENCH_EPOCH + i * 1000;
    return {
      sessionId: randomUUID(),
      userId,
      durationSeconds: 90,
      startedAt: new Date(startedAt).toISOString(),
      endedAt: new Date(startedAt + 90_000).toISOString(),
    };
  });
}

/** A platform for the tracker with a clock the bench moves, plus its network switch. */
export interface BenchPlatform {
  platform: Platform;
  /** Moves both clocks forward. */
  advance(ms: number): void;
  setOnline(online: boolean): void;
}

/**
 * The memory platform (its lifecycle, crypto, lock and network) with a bench clock. `storage` replaces the
 * memory platform's storage when given (IndexedDB); otherwise the tracker uses the memory platform's own view
 * of `memoryStore`, as in the SDK's tests.
 */
export function benchPlatform(options: { memoryStore?: KeyValueStorage; storage?: KeyValueStorage; fetch?: Platform['fetch']; online: boolean }): BenchPlatform {
  const base = createMemoryPlatform({
    online: options.online,
    ...(options.memoryStore ? { storage: options.memoryStore } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  let elapsed = 0;
  const platform: Platform = {
    storage: options.storage ?? base.storage,
    lifecycle: base.lifecycle,
    crypto: base.crypto,
    fetch: base.fetch,
    network: base.network,
    openWebView: (url, webViewOptions) => base.openWebView(url, webViewOptions),
    lock: (name, task) => base.lock(name, task),
    now: () => BENCH_EPOCH + elapsed,
    monotonic: () => elapsed,
  };
  return { platform, advance: (ms) => void (elapsed += ms), setOnline: (online) => base.setOnline(online) };
}
