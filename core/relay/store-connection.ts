/**
 * Whether a Redis store the relay counts in has no connection now. Its commands would wait in the client's offline
 * queue (ioredis's defaults: over a minute per request, 73 s measured), holding the player's request; the relay
 * answers 503 with Retry-After at once instead, for the daily cap and for the rate-limiter-flexible limiters a
 * studio passes (`rateLimiter`, `failedAuthLimit`), with or without their own `rejectIfRedisNotReady`.
 * @see DESIGN section 6; docs/decisions.md ("Limiter stores that are down", "A store that does not answer")
 */
import { withDeadline } from '../with-deadline.js';
import { countsInMemory } from './limiters.js';

/**
 * True when a Redis client says it has no connection now: ioredis reconnecting or closed, node-redis open but not
 * ready. assumed: a client that has not connected yet (ioredis `wait` with `lazyConnect`, or `connecting`) is given
 * its first connection, so a relay starting with its Redis is not refused.
 */
export function storeDisconnected(client: unknown): boolean {
  if (typeof client !== 'object' || client === null) return false;
  const { status, isOpen, isReady } = client as { status?: unknown; isOpen?: unknown; isReady?: unknown };
  if (typeof status === 'string') return status === 'reconnecting' || status === 'close' || status === 'end';
  return isOpen === true && isReady === false;
}

/**
 * True when a rate-limiter-flexible limiter counts in a Redis client ({@link storeDisconnected}: a `RateLimiterRedis`
 * keeps it as `client`) that has no connection now. A limiter with an `insuranceLimiter` is never taken for down: the
 * studio chose where its requests go while Redis is away.
 */
export function limiterStoreDisconnected(limiter: object): boolean {
  const { client, insuranceLimiter } = limiter as { client?: unknown; insuranceLimiter?: unknown };
  return !insuranceLimiter && storeDisconnected(client);
}

/** Default of `RelayOptions.storeTimeoutMs`. assumed: 5 s, half of `authenticate`'s; a Redis answers in milliseconds. */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000;

/**
 * `limiter` with a deadline on every call that returns a promise (`consume`, `get`, `reward`, ...): past `timeoutMs`
 * the call rejects with an Error, which the relay answers as a store it cannot reach (503 with Retry-After), the
 * call itself left to settle on its own. A client that still says it is connected does not answer when the Redis
 * server stalls (stopped, a network partition without a reset: ioredis waits without end unless `commandTimeout` is
 * set) or dies with a command in flight (ioredis resends it after reconnecting, up to `maxRetriesPerRequest`: over a
 * minute with its defaults), and each player's request waited with it, its retries piling up behind. A limiter with
 * an `insuranceLimiter` asks that one instead when the deadline passes (the studio chose where requests go while
 * Redis is away, as rate-limiter-flexible does when Redis fails). A limiter counting in this process's memory is
 * returned as it is: it answers at once. With `undoLateConsume`, a `consume` answered past the deadline (taken, or
 * refused: rate-limiter-flexible counts a refused one too) is given back (`reward`) when it lands: the request was
 * answered as if nothing was taken, and a Redis that resumes runs every command queued while it stalled.
 */
export function withStoreDeadline<L extends object>(limiter: L, timeoutMs: number, undoLateConsume = false): L {
  if (countsInMemory(limiter)) return limiter;
  return new Proxy(limiter, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (!(result instanceof Promise)) return result;
        return withDeadline(result, timeoutMs, () => {
          if (undoLateConsume && name === 'consume') {
            const undo = (settled: unknown) => {
              if (settled instanceof Error || typeof settled !== 'object' || settled === null) return; // not counted
              const reward = (target as { reward?: (key: unknown, points: unknown) => Promise<unknown> }).reward;
              reward?.call(target, args[0], args[1] ?? 1).catch(() => undefined);
            };
            result.then(undo, undo);
          }
          const insurance = (target as { insuranceLimiter?: Record<PropertyKey, unknown> }).insuranceLimiter;
          const same = insurance?.[name];
          if (typeof same === 'function') return same.apply(insurance, args);
          return Promise.reject(new Error(`The store did not answer within ${timeoutMs} ms`));
        });
      };
    },
  });
}
