/**
 * The optional limit on failed authentications per client address: a client guessing tokens is stopped after
 * a few failures, before `authenticate` (the game's own check, maybe a database look-up) runs again for it.
 * Other addresses are not affected. rate-limiter-flexible counts the failures: in memory, or in Redis for a fleet.
 * @see DESIGN section 6; docs/decisions.md ("Failed authentications")
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterMemory } from './limiters.js';
import { consumePoint } from './rate-limit.js';

/**
 * The limit of the default failed-authentication limiter. assumed: 10 failures per address per minute, far
 * above a player mistyping, far below a token guesser.
 */
export const DEFAULT_FAILED_AUTH_LIMIT = { points: 10, duration: 60 } as const;

/** A `RateLimiterMemory` of {@link DEFAULT_FAILED_AUTH_LIMIT}, keyed by client address. */
export function defaultFailedAuthLimiter(): RateLimiterAbstract {
  return new RateLimiterMemory({ ...DEFAULT_FAILED_AUTH_LIMIT, keyPrefix: 'game-campaign-relay-auth' });
}

/**
 * Reserves one attempt for `address` before `authenticate` runs: undefined when it may go on, else the answer,
 * 429 `RATE_LIMITED` with `Retry-After` once failures used up the limit, or 503 when the store cannot be
 * reached (assumed: fail closed, as the rate limit does). The attempt is reserved first, atomically, so a
 * burst of concurrent guesses is held to the limit too; {@link authSucceeded} gives it back.
 */
export function reserveAuthAttempt(limiter: RateLimiterAbstract, address: string): Promise<Response | undefined> {
  return consumePoint(limiter, address, 'Too many failed authentications from this address');
}

/** Gives back the attempt an authentication that succeeded reserved: only failures count. */
export async function authSucceeded(limiter: RateLimiterAbstract, address: string): Promise<void> {
  await limiter.reward(address, 1).catch(() => undefined); // a store gone away forgets it at the key's expiry
}
