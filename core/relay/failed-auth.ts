/**
 * The optional limit on failed authentications per client address: a client guessing tokens is stopped after
 * a few failures, before `authenticate` (the game's own check, maybe a database look-up) runs again for it.
 * Other addresses are not affected. rate-limiter-flexible counts the failures: in memory, or in Redis for a fleet.
 * @see DESIGN section 6; docs/decisions.md ("Failed authentications")
 */
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { errorResponse, retryAfterSeconds, unavailableResponse } from './answers.js';
import { isCloudflareWorker } from '../server/runtime.js';
import { countsInMemory, RateLimiterMemory, RateLimiterRedis } from './limiters.js';
import { limiterStoreDisconnected } from './store-connection.js';
import { DEFAULT_DAILY_CAP_KEY_PREFIX, type DailyPlaytimeCapOptions } from './daily-cap.js';

/**
 * The limit of the default failed-authentication limiter. assumed: 10 failures per address per minute, far
 * above a player mistyping, far below a token guesser.
 */
export const DEFAULT_FAILED_AUTH_LIMIT = { points: 10, duration: 60 } as const;

/**
 * The limiter of {@link DEFAULT_FAILED_AUTH_LIMIT}, keyed by client address: a `RateLimiterRedis` over the daily cap's
 * `storeClient` when there is one, so a fleet's relays count an address's failures once; else a `RateLimiterMemory`.
 * assumed: a relay given a Redis for its cap runs as a fleet, and without it each relay behind a load balancer would
 * give a token guesser its own 10 failures a minute. Its keys are `<the cap's keyPrefix>-auth:<address>`, beside the
 * cap's own (`<keyPrefix>:<user>:<day>`, `<keyPrefix>-kept:…`): a game's keys in a Redis shared with other games are
 * all under its `keyPrefix`, so one game's token guesses no longer block an address's players in another.
 * Before, every relay counted under `game-campaign-relay-auth`: those keys are not read (they expire within the
 * minute on their own).
 */
export function defaultFailedAuthLimiter(cap: DailyPlaytimeCapOptions = {}): RateLimiterAbstract {
  const limit = { ...DEFAULT_FAILED_AUTH_LIMIT, keyPrefix: `${cap.keyPrefix ?? DEFAULT_DAILY_CAP_KEY_PREFIX}-auth` };
  return cap.storeClient === undefined ? new RateLimiterMemory(limit) : new RateLimiterRedis({ ...limit, storeClient: cap.storeClient });
}

/**
 * `RelayOptions.failedAuthLimit`'s limiter, or undefined when it is off. `true` counts where the daily cap does
 * ({@link defaultFailedAuthLimiter}). A limiter of the studio's that counts in this process's memory while the cap
 * counts in a shared store (or the other way round) is warned of once, at `createRelay`: behind a load balancer
 * one of the two limits is per relay. assumed: a warning, not an error: one relay that keeps its cap in Redis only
 * to survive restarts means it, and an upgrade must not stop a relay that ran.
 */
export function failedAuthLimiterOf(option: boolean | RateLimiterAbstract | undefined, cap: DailyPlaytimeCapOptions | undefined): RateLimiterAbstract | undefined {
  const capStoreClient = cap?.storeClient;
  if (option === true) return defaultFailedAuthLimiter(cap);
  if (!option) return undefined;
  const shared = (option as { client?: unknown }).client !== undefined;
  if (cap && (capStoreClient === undefined ? shared : countsInMemory(option))) {
    console.warn(
      capStoreClient === undefined
        ? 'createRelay: failedAuthLimit counts in a shared store but dailyPlaytimeCap in this process\'s memory: behind a load balancer each relay gives a player a full daily cap; pass dailyPlaytimeCap.storeClient'
        : 'createRelay: failedAuthLimit counts in this process\'s memory but dailyPlaytimeCap in a shared store: behind a load balancer each relay allows an address its own failed logins; pass failedAuthLimit: true, or a RateLimiterRedis over the same client',
    );
  }
  return option;
}

/**
 * Failed authentications per address, counted in `limiter` (one point per failure, never for a success), and the
 * authentications this relay runs at once per address: at most as many as the address has failures left, so a
 * burst of concurrent guesses is held to the limit too. A request past that waits for one of them to end instead
 * of being refused: players behind one address (a carrier's NAT, a school) whose logins are checked at the same
 * time all get in. assumed: the attempts in flight are counted per relay; across a fleet the failures are shared
 * (the limiter's store), so a burst spread over several relays is held to the limit once its failures are counted.
 * On a Cloudflare Worker a request cannot wait for another request's work (workerd answers it with a bare 500, as
 * for the relay's merging), so there a request past that is answered 429 with `Retry-After: 1` instead.
 */
export class FailedAuthLimit {
  readonly #limiter: RateLimiterAbstract;
  /** Authentications running, per address. */
  readonly #running = new Map<string, number>();
  /** Requests waiting for one of an address's running authentications to end, first come first served. */
  readonly #waiting = new Map<string, Array<() => void>>();
  readonly #canWait = !isCloudflareWorker();

  constructor(limiter: RateLimiterAbstract) {
    this.#limiter = limiter;
  }

  /**
   * Waits for a turn to authenticate a request from `address`: undefined when it may go on (then {@link end}
   * must follow), else the answer to send, 429 `RATE_LIMITED` with `Retry-After` once failures used up the
   * limit (or, on a Worker, while its turns are taken), or 503 when the store cannot be reached (assumed: fail
   * closed, as the rate limit does), at once while its Redis client reports no connection.
   */
  async begin(address: string): Promise<Response | undefined> {
    for (;;) {
      let counted: RateLimiterRes | null;
      try {
        if (limiterStoreDisconnected(this.#limiter)) throw new Error('The failed-authentication store is disconnected');
        counted = await this.#limiter.get(address);
      } catch {
        this.#wakeAll(address); // it leaves without a turn: those waiting look for themselves
        return unavailableResponse('The failed-authentication store is unavailable; retry later');
      }
      const left = this.#limiter.points - (counted?.consumedPoints ?? 0);
      if (left <= 0) {
        this.#wakeAll(address); // the address is blocked: every request waiting for it is answered now, not one by one
        const retryAfter = String(retryAfterSeconds(Math.max(counted?.msBeforeNext ?? 0, 0)));
        return errorResponse(429, 'RATE_LIMITED', 'Too many failed authentications from this address', undefined, { 'retry-after': retryAfter });
      }
      const running = this.#running.get(address) ?? 0;
      if (running < left) {
        this.#running.set(address, running + 1);
        return undefined;
      }
      if (!this.#canWait) {
        return errorResponse(429, 'RATE_LIMITED', 'Too many authentications at once from this address; retry in a moment', undefined, { 'retry-after': '1' });
      }
      await new Promise<void>((resolve) => this.#queue(address).push(resolve));
    }
  }

  /** Ends the authentication {@link begin} let through: a failure is counted (best effort), a success is not. */
  async end(address: string, succeeded: boolean): Promise<void> {
    // Counted before the turn is handed on, so the next one sees it; not queued behind a reconnecting Redis client.
    if (!succeeded && !limiterStoreDisconnected(this.#limiter)) await this.#limiter.consume(address, 1).catch(() => undefined);
    const running = (this.#running.get(address) ?? 1) - 1;
    if (running > 0) this.#running.set(address, running);
    else this.#running.delete(address);
    this.#wakeNext(address);
  }

  #queue(address: string): Array<() => void> {
    let queue = this.#waiting.get(address);
    if (!queue) this.#waiting.set(address, (queue = []));
    return queue;
  }

  #wakeAll(address: string): void {
    const queue = this.#waiting.get(address);
    this.#waiting.delete(address);
    queue?.forEach((wake) => wake());
  }

  #wakeNext(address: string): void {
    const queue = this.#waiting.get(address);
    const next = queue?.shift();
    if (queue?.length === 0) this.#waiting.delete(address);
    next?.();
  }
}
