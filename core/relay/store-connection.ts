/**
 * Whether a Redis store the relay counts in has no connection now. Its commands would wait in the client's offline
 * queue (ioredis's defaults: over a minute per request, 73 s measured), holding the player's request; the relay
 * answers 503 with Retry-After at once instead, for the daily cap and for the rate-limiter-flexible limiters a
 * studio passes (`rateLimiter`, `failedAuthLimit`), with or without their own `rejectIfRedisNotReady`.
 * @see DESIGN section 6; docs/decisions.md ("Limiter stores that are down")
 */

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
