/**
 * Per-user rate limiting with rate-limiter-flexible: a `RateLimiterMemory` for one relay, a
 * `RateLimiterRedis` (or any other store) shared by a fleet, so one user meets one limit everywhere.
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterMemory } from './limiters.js';
import { errorResponse, retryAfterSeconds, unavailableResponse } from './answers.js';
import { limiterStoreDisconnected } from './store-connection.js';
import { userKey } from './user-key.js';

/** The limit of the default limiter. assumed: 20 requests per second per user (the spec shows no numbers). */
export const DEFAULT_RELAY_RATE_LIMIT = { points: 20, duration: 1 } as const;

/** The relay's default limiter: in memory, {@link DEFAULT_RELAY_RATE_LIMIT} per user. */
export function defaultRateLimiter(): RateLimiterAbstract {
  return new RateLimiterMemory({ ...DEFAULT_RELAY_RATE_LIMIT, keyPrefix: 'game-campaign-relay' });
}

/**
 * Takes one point for `userId`; undefined when the request may go on, else the answer to send:
 * 429 `RATE_LIMITED` with `Retry-After` (the ceiling of `msBeforeNext` in seconds, at least 1), or 503 when
 * the limiter's store cannot be reached (assumed: fail closed, so a fleet never exceeds its shared limit;
 * clients keep their data and retry): at once while its Redis client reports no connection.
 */
export function takeRateLimitPoint(limiter: RateLimiterAbstract, userId: string): Promise<Response | undefined> {
  // The player as its keys name it (./user-key.ts): a lone surrogate would be U+FFFD, another player's, in Redis.
  return consumePoint(limiter, userKey(userId), 'Too many requests for this user');
}

/** Takes one point for `key`: undefined when it may go on, else 429 `RATE_LIMITED` saying `tooMany` with `Retry-After`, or 503 when the store cannot be reached. */
export async function consumePoint(limiter: RateLimiterAbstract, key: string, tooMany: string): Promise<Response | undefined> {
  if (limiterStoreDisconnected(limiter)) return storeUnavailable();
  try {
    await limiter.consume(key, 1);
    return undefined;
  } catch (rejection) {
    const msBeforeNext = msBeforeNextOf(rejection);
    if (msBeforeNext === undefined) return storeUnavailable();
    return errorResponse(429, 'RATE_LIMITED', tooMany, undefined, { 'retry-after': String(retryAfterSeconds(msBeforeNext)) });
  }
}

function storeUnavailable(): Response {
  return unavailableResponse('The rate limit store is unavailable; retry later');
}

/**
 * rate-limiter-flexible rejects with a `RateLimiterRes` when the points are used up and with an `Error`
 * when its store fails; the former is recognised by shape so a second copy of the library works too.
 */
function msBeforeNextOf(rejection: unknown): number | undefined {
  if (rejection instanceof Error || typeof rejection !== 'object' || rejection === null) return undefined;
  const ms = (rejection as { msBeforeNext?: unknown }).msBeforeNext;
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : undefined;
}
