/**
 * The daily cap's counts in this process's memory (no `storeClient`), held by UTC day: a day's counts and its
 * sessions' marks are dropped together once no session for that day can still be accepted (its `startedAt` older
 * than the relay's maximum session age), and never more than `dailyPlaytimeCap.maxKeysInMemory` at once.
 * rate-limiter-flexible's memory store held each key about 1 KB (a timer per key; a mark ~540 B), for 24.8 days from
 * when it was made (the timer limit: shorter than a 30-day session age, so a late session found its day reset), and
 * without bound: players (guests) with ever-new ids grew a relay's memory for weeks.
 * @see docs/decisions.md ("Daily play-time cap in memory: bounded")
 */
import type { RateLimiterRes } from 'rate-limiter-flexible';

const DAY_MS = 86_400_000;

/**
 * How long after the last instant a session of a day can be accepted its counts are still kept. assumed: 1 hour,
 * for a relay's clock stepped back (NTP steps are seconds); past it a day's counts are gone for good.
 */
export const DAY_COUNTS_MARGIN_MS = 3_600_000;

/**
 * Ms until the counts of UTC `day` (days since 1970-01-01) are no longer needed: no session on it can be accepted after
 * its end + the relay's maximum session age (+ {@link DAY_COUNTS_MARGIN_MS}). The life of a day's keys in memory and in
 * Redis alike.
 */
export function dayCountsLeftMs(day: number, maxSessionAgeMs: number, nowMs: number): number {
  return (day + 1) * DAY_MS + maxSessionAgeMs + DAY_COUNTS_MARGIN_MS - nowMs;
}

/**
 * Default of `dailyPlaytimeCap.maxKeysInMemory`: player-days counted plus sessions marked, about 110 B each (measured,
 * Node 20, UUID ids; 1,030 B and 540 B in rate-limiter-flexible's store): about 220 MB at most. assumed: 2,000,000, some 16,000 players a day with 3 sessions each over
 * the default 30-day age; a game with more runs the cap in Redis (`storeClient`).
 */
export const DEFAULT_MAX_KEYS_IN_MEMORY = 2_000_000;

/** The error a take meets when the memory holds {@link DayCounts}'s most keys: the batch is answered 503. */
export class DayCountsFullError extends Error {
  constructor(readonly maxKeys: number) {
    super(`The daily cap counts the most player-days and sessions it may in memory (maxKeysInMemory: ${maxKeys}); retry later`);
    this.name = 'DayCountsFullError';
  }
}

/** The keys the counts and the marks of one cap hold together, and the most they may. */
export interface KeyBudget {
  held: number;
  readonly max: number;
  warned?: boolean;
  /** Each sharing store's sweep: any call sweeps them all, so keys a store no longer gets calls for are freed too. */
  sweeps?: Array<() => void>;
}

/** What a call names besides its key: the UTC day it counts for (days since 1970-01-01). */
export interface DayOption {
  day: number;
}

/**
 * The part of a rate-limiter-flexible limiter the daily cap calls (`get`, `consume`, `reward`), counting per key
 * within a UTC day. A `consume` past `points` is counted and rejected with a result (not an Error), as
 * rate-limiter-flexible does; a `consume` that would add a key while the budget's keys (this store's and those of the
 * stores sharing it) are `max` or more is rejected with a {@link DayCountsFullError} and counts nothing. Keys already held go on counting when full: a player counted for
 * the day is never turned away by other players' keys.
 */
export class DayCounts {
  /** Per day, the points of each key. */
  readonly #days = new Map<number, Map<string, number>>();
  /** The oldest day kept at the last sweep. */
  #sweptFrom = -Infinity;

  /**
   * @param points - the most points a key may count
   * @param maxSessionAgeMs - the relay's maximum session age: a day is kept while a session on it can still be accepted
   * @param budget - the keys held, shared with the cap's other store, and the most it may hold
   * @param now - the clock, ms since the epoch
   */
  constructor(
    readonly points: number,
    private readonly maxSessionAgeMs: number,
    private readonly budget: KeyBudget,
    private readonly now: () => number = () => Date.now(),
  ) {
    (budget.sweeps ??= []).push(() => this.#dropPast());
  }

  async get(key: string, options: DayOption): Promise<Pick<RateLimiterRes, 'consumedPoints'> | null> {
    this.#sweep();
    const counted = this.#days.get(options.day)?.get(key);
    return counted === undefined ? null : { consumedPoints: counted };
  }

  async consume(key: string, points: number, options: DayOption): Promise<Pick<RateLimiterRes, 'consumedPoints' | 'remainingPoints' | 'msBeforeNext'>> {
    this.#sweep();
    let day = this.#days.get(options.day);
    const before = day?.get(key);
    if (before === undefined && this.budget.held >= this.budget.max) throw this.#full();
    if (!day) this.#days.set(options.day, (day = new Map()));
    const counted = (before ?? 0) + points;
    if (before === undefined) {
      this.budget.held++;
      day.set(ownCopy(key), counted);
    } else day.set(key, counted);
    const result = { consumedPoints: counted, remainingPoints: Math.max(0, this.points - counted), msBeforeNext: dayCountsLeftMs(options.day, this.maxSessionAgeMs, this.now()) };
    if (counted > this.points) throw result;
    return result;
  }

  async reward(key: string, points: number, options: DayOption): Promise<void> {
    const day = this.#days.get(options.day);
    const before = day?.get(key);
    if (day && before !== undefined) day.set(key, before - points);
  }

  #sweep(): void {
    for (const sweep of this.budget.sweeps ?? []) sweep();
  }

  /** Drops the days no session can be accepted on any more (their last instant older than the maximum age). */
  #dropPast(): void {
    // The first day whose dayCountsLeftMs is not below 0: day D is kept while now <= its end + the maximum age + the margin.
    const from = Math.ceil((this.now() - this.maxSessionAgeMs - DAY_COUNTS_MARGIN_MS) / DAY_MS) - 1;
    if (from <= this.#sweptFrom) return;
    this.#sweptFrom = from;
    this.#days.forEach((keys, day) => {
      if (day >= from) return;
      this.budget.held -= keys.size;
      this.#days.delete(day);
    });
  }

  #full(): DayCountsFullError {
    const error = new DayCountsFullError(this.budget.max);
    if (!this.budget.warned) {
      this.budget.warned = true;
      console.warn(`[game-campaign-sdk] relay: ${error.message}. Sessions of players not yet counted today are answered 503 (kept by the client) until a day's counts expire; raise it or count in Redis (dailyPlaytimeCap.storeClient).`);
    }
    return error;
  }
}

/**
 * `key` as a string of its own. A key made by concatenation (`${userId}:${date}`) is a V8 rope that holds its parts,
 * and a part may hold more (a user id cut from a token holds the token): 594 B a key measured on Node 20 with UUID ids,
 * 122 B as its own string. Through JSON, every string comes back exact (lone surrogates too, unlike TextEncoder's).
 */
function ownCopy(key: string): string {
  return JSON.parse(JSON.stringify(key)) as string;
}
