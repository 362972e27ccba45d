/**
 * The optional per-user daily play-time cap: at most so many seconds of play per user per UTC day, counted in
 * this process's memory by UTC day for one relay ({@link DayCounts}), or with rate-limiter-flexible in Redis for a
 * fleet, so every relay counts against one budget.
 * @see DESIGN section 6; docs/decisions.md ("Daily play-time cap")
 */
import { digestKey, userKey } from './user-key.js';
import { RateLimiterRedis } from './limiters.js';
import { dayCountsLeftMs, DayCounts, DEFAULT_MAX_KEYS_IN_MEMORY, type DayOption, type KeyBudget } from './day-counts.js';
import type { BulkPlaytimeItem } from '../schema/playtime.js';
import { DEFAULT_STORE_TIMEOUT_MS, storeDisconnected, withStoreDeadline } from './store-connection.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY_SECONDS = DAY_MS / 1000;

/** No user plays more than a day's seconds in a UTC day: the largest cap, and the default. */
export const MAX_DAILY_PLAYTIME_SECONDS = DAY_SECONDS;

/** Options of `RelayOptions.dailyPlaytimeCap`. */
export interface DailyPlaytimeCapOptions {
  /** Seconds of play a user may record per UTC day, 1 to 86400. @defaultValue 86400 (24 h) */
  seconds?: number;
  /**
   * The Redis client (ioredis or node-redis) the fleet's `RateLimiterRedis` uses: every relay then counts
   * against one budget per user and day, and `failedAuthLimit: true` counts each address's failed logins there too.
   * While it reports no connection (ioredis reconnecting), batches are answered 503 at once rather than queued
   * behind it. @defaultValue none: counted in this process's memory
   */
  storeClient?: unknown;
  /**
   * Prefix of the store's keys: the day's counts (`<keyPrefix>:…`), the kept sessions' marks (`<keyPrefix>-kept:…`)
   * and, with `failedAuthLimit: true` and `storeClient`, the failed logins (`<keyPrefix>-auth:…`). Give each game that
   * shares one Redis its own, or their players' counts mix. @defaultValue 'game-campaign-playtime-day'
   */
  keyPrefix?: string;
  /**
   * Without `storeClient`: the most keys the cap holds in this process's memory, player-days counted plus sessions
   * marked (about 110 B each). A day's keys are dropped once no session on it can be accepted (`maxSessionAgeMs` after
   * the day). When full, a session of a player not yet counted that day is answered 503 with `Retry-After` (the client
   * keeps it and sends it again), never FAILED nor let past the cap; players already counted that day go on; warned
   * once (`console.warn`). @defaultValue 2000000 (about 220 MB at most)
   * @throws RangeError from `createRelay` when it is not a whole number >= 1
   */
  maxKeysInMemory?: number;
}

/** The part of a limiter the cap calls; each call names the UTC day it counts for ({@link DayCounts} keeps keys by it). */
interface CapLimiter {
  get(key: string, options: DayOption): Promise<{ consumedPoints: number } | null>;
  consume(key: string, points: number, options: DayOption): Promise<unknown>;
  reward(key: string, points: number, options: DayOption): Promise<unknown>;
}

/** The default of {@link DailyPlaytimeCapOptions.keyPrefix}. */
export const DEFAULT_DAILY_CAP_KEY_PREFIX = 'game-campaign-playtime-day';

/** The `error` of a session over the cap; it is FAILED, not forwarded. */
export const DAILY_CAP_ERROR = "the user's play time for this UTC day would exceed the relay's daily cap";

/** Seconds taken from one user's budget (`key`) for one day, `day` days after 1970-01-01 (UTC). */
interface Share {
  key: string;
  day: number;
  seconds: number;
}
/** Seconds taken from a budget, of one session or of a batch's sessions together. */
type Taken = Share;

/** What {@link DailyPlaytimeCap.take} took, to give back when the service does not record the session. */
export type CapTaken = readonly Share[];

/**
 * Counts recorded play time per user and UTC day. A session's seconds are shared among the UTC days its
 * `startedAt`..`endedAt` interval covers, in proportion. Seconds are taken before the session goes upstream,
 * given back when the service does not hold it (FAILED, or no answer), and kept once per session and day when it
 * does (SUCCESS, or SKIPPED as already recorded: {@link keepOnce}), so a retried or duplicate session is counted
 * once, also when the service recorded it and its answer was lost.
 */
export class DailyPlaytimeCap {
  readonly #limiter: CapLimiter;
  /**
   * One point per session and day whose seconds were kept (`<sessionId>:<day number>`, see {@link markOf}): a second
   * keep finds it taken. Not per user: a session id names one recorded session, whoever sends it (the spec's
   * uniqueness rule), and another player's resend of it is SKIPPED without being recorded for them. The shortest key
   * that says so, since a fleet keeps one per session recorded (~165 B of Redis each with UUIDs, measured on Redis
   * 7.0; 197 B with the user's id and an ISO date in it).
   */
  readonly #kept: CapLimiter;
  readonly #seconds: number;
  readonly #storeClient: unknown;
  readonly #maxSessionAgeMs: number;
  readonly #now: () => number;

  /**
   * @param maxSessionAgeMs - the relay's maximum session age: a day's count is kept that long after the day, so a
   * late (offline) session cannot find its day's budget reset
   * @param storeTimeoutMs - the longest one call to a Redis store may take ({@link withStoreDeadline})
   * @param now - the clock of the counts in memory, ms since the epoch
   * @throws RangeError when `seconds` is not a whole number from 1 to 86400, or `maxKeysInMemory` not one >= 1
   */
  constructor(options: DailyPlaytimeCapOptions, maxSessionAgeMs: number, storeTimeoutMs = DEFAULT_STORE_TIMEOUT_MS, now: () => number = () => Date.now()) {
    const seconds = options.seconds ?? MAX_DAILY_PLAYTIME_SECONDS;
    if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > MAX_DAILY_PLAYTIME_SECONDS) {
      throw new RangeError(`dailyPlaytimeCap.seconds must be a whole number from 1 to ${MAX_DAILY_PLAYTIME_SECONDS}`);
    }
    const maxKeys = options.maxKeysInMemory ?? DEFAULT_MAX_KEYS_IN_MEMORY;
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) throw new RangeError(`dailyPlaytimeCap.maxKeysInMemory must be a whole number >= 1, got ${String(maxKeys)}`);
    this.#seconds = seconds;
    this.#storeClient = options.storeClient;
    this.#maxSessionAgeMs = maxSessionAgeMs;
    this.#now = now;
    // Each Redis key is made with the life {@link #on} gives it; this is rate-limiter-flexible's required default.
    const duration = Math.ceil(maxSessionAgeMs / 1000) + 2 * DAY_SECONDS;
    const keyPrefix = options.keyPrefix ?? DEFAULT_DAILY_CAP_KEY_PREFIX;
    // The kept sessions' marks live as long as their day's count: a retry is never counted again while the day is.
    // The day's counts give a late take back (withStoreDeadline); a late mark stays, its seconds being kept.
    // In memory the counts and the marks share one budget of keys, each day's dropped when its sessions can no longer come.
    const budget: KeyBudget = { held: 0, max: maxKeys };
    const store = (points: number, prefix: string, undoLateConsume: boolean): CapLimiter =>
      options.storeClient === undefined
        ? new DayCounts(points, maxSessionAgeMs, budget, now)
        : withStoreDeadline(new RateLimiterRedis({ points, keyPrefix: prefix, duration, storeClient: options.storeClient }), storeTimeoutMs, undoLateConsume);
    this.#limiter = store(seconds, keyPrefix, true);
    this.#kept = store(1, `${keyPrefix}-kept`, false);
  }

  /**
   * Takes the session's seconds from `userId`'s budgets; undefined when a day's budget is too small (then
   * nothing is taken).
   * @throws the store's error when it cannot be reached
   */
  async take(userId: string, session: BulkPlaytimeItem): Promise<CapTaken | undefined> {
    const taken: Share[] = [];
    for (const share of dayShares(userId, session)) {
      try {
        if (!(await this.#fits(share))) {
          await this.giveBack(taken);
          return undefined;
        }
        await this.#limiter.consume(share.key, share.seconds, this.#on(share));
        taken.push(share);
      } catch (rejection) {
        if (rejection instanceof Error || typeof rejection !== 'object' || rejection === null) {
          await this.giveBack(taken);
          throw rejection;
        }
        // rate-limiter-flexible counts a refused consume too: those seconds go back with the rest.
        await this.giveBack([...taken, share]);
        return undefined;
      }
    }
    return taken;
  }

  /**
   * {@link take} for a batch, in order: what each session took, undefined for a session over the cap. The
   * usual batch (within the budgets) costs two store calls (a read and a take) per UTC day it covers, not per
   * session; only a batch that would pass a budget is taken session by session, so the sessions that fit still count.
   * @throws the store's error when it cannot be reached, at once when its client says it is disconnected (then
   * nothing is taken)
   */
  async takeBatch(userId: string, sessions: readonly BulkPlaytimeItem[]): Promise<Array<CapTaken | undefined>> {
    if (storeDisconnected(this.#storeClient)) throw new Error('The daily cap store is disconnected');
    const shares = sessions.map((session) => dayShares(userId, session));
    const totals = new Map<string, Taken>();
    for (const share of shares.flat()) {
      const total = totals.get(share.key);
      if (total) total.seconds += share.seconds;
      else totals.set(share.key, { ...share });
    }
    const taken: Taken[] = [];
    for (const total of totals.values()) {
      try {
        if (!(await this.#fits(total))) {
          await this.giveBack(taken);
          return this.#takeEach(userId, sessions);
        }
        await this.#limiter.consume(total.key, total.seconds, this.#on(total));
        taken.push(total);
      } catch (rejection) {
        if (rejection instanceof Error || typeof rejection !== 'object' || rejection === null) {
          await this.giveBack(taken);
          throw rejection;
        }
        await this.giveBack([...taken, total]);
        return this.#takeEach(userId, sessions);
      }
    }
    return shares;
  }

  /**
   * What a store call names besides its key: the UTC day (DayCounts keeps keys by it) and, for a key Redis makes, its
   * life in seconds (rate-limiter-flexible's `customDuration`, set when the key is made): until no session on that day
   * can be accepted, as in memory. Was the maximum age + 2 days from the key's first take: a day first counted by a
   * late session stayed up to twice as long, and a `clockSkewMs` over a day let a future day's count expire early.
   */
  #on(share: Taken): DayOption & { customDuration: number } {
    const untilMs = dayCountsLeftMs(share.day, this.#maxSessionAgeMs, this.#now());
    return { day: share.day, customDuration: Math.max(1, Math.ceil(untilMs / 1000)) }; // 0 would be "never expires"
  }

  /**
   * True when `seconds` more fit the day's budget as it stands. Read before taking: a take that does not fit is
   * counted by the store until it is given back, and a session of the same player taken in between would be
   * FAILED for good over seconds that were never recorded. A take that fits here may still be refused by one taken
   * at the same moment (then both truly did not fit).
   * @throws the store's error when it cannot be reached
   */
  async #fits(share: Taken): Promise<boolean> {
    const counted = await this.#limiter.get(share.key, this.#on(share));
    return (counted?.consumedPoints ?? 0) + share.seconds <= this.#seconds;
  }

  async #takeEach(userId: string, sessions: readonly BulkPlaytimeItem[]): Promise<Array<CapTaken | undefined>> {
    const taken: Array<CapTaken | undefined> = [];
    try {
      // One at a time: the sessions of one batch share the user's budgets.
      for (const session of sessions) taken.push(await this.take(userId, session));
    } catch (error) {
      await Promise.all(taken.map((t) => (t ? this.giveBack(t) : undefined)));
      throw error;
    }
    return taken;
  }

  /**
   * Keeps what `sessionId` took, now that the service holds it (SUCCESS, or SKIPPED as already recorded), once per
   * session and day: what another answer for the same session already kept goes back. A SKIPPED session is counted
   * here when no answer counted it before: the service stored it and its answer was lost (a time-out or 5xx), which
   * gave its seconds back. A store that cannot mark a session keeps its seconds counted (best effort, as giveBack).
   */
  async keepOnce(sessionId: string, taken: CapTaken): Promise<void> {
    if (storeDisconnected(this.#storeClient)) return;
    const again = await Promise.all(
      taken.map((share) =>
        this.#kept.consume(`${markOf(sessionId)}:${share.day}`, 1, this.#on(share)).then(
          () => undefined,
          // A refused point (a result, not an Error) is a session already kept for that day.
          (rejection: unknown) => (rejection instanceof Error || typeof rejection !== 'object' || rejection === null ? undefined : share),
        ),
      ),
    );
    await this.giveBack(again.filter((share): share is Share => share !== undefined));
  }

  /** Gives back what {@link take} took (best effort: a store that went away keeps them until the key expires). */
  async giveBack(taken: readonly Taken[]): Promise<void> {
    if (storeDisconnected(this.#storeClient)) return; // not queued behind a reconnecting client: the answer would wait for it
    await Promise.all(taken.map((share) => this.#limiter.reward(share.key, share.seconds, this.#on(share)).catch(() => undefined)));
  }
}

/**
 * The longest session id a mark holds as it is. The spec sets no length, and a modified client's ids of up to the
 * body's 1 MiB each left a mark that size for the day's lifetime (a 200,000-character id: 236 KB of Redis per
 * 1-second session, every second of the budget of every day within the maximum age). assumed: 64 characters, above
 * a UUID (36) and the ids games make.
 */
const MAX_MARKED_SESSION_ID_CHARS = 64;

/**
 * A session id as its marks name it: itself when it has at most 64 characters and no surrogate, else `sha256:` and
 * the digest of its UTF-16 code units (71 characters, so never an id as it is). Redis clients send a key as UTF-8,
 * where every lone surrogate becomes U+FFFD: ids differing only there shared one mark, and each but the first was
 * given back as already counted (six 30 s sessions recorded against a 100 s cap).
 */
function markOf(sessionId: string): string {
  if (sessionId.length <= MAX_MARKED_SESSION_ID_CHARS && !/[\ud800-\udfff]/.test(sessionId)) return sessionId;
  return digestKey(sessionId);
}

/** The session's seconds per UTC day it covers, in proportion to its time in each; the last day gets the rest. */
export function dayShares(userId: string, session: BulkPlaytimeItem): Share[] {
  const start = Date.parse(session.startedAt);
  const end = Date.parse(session.endedAt);
  const duration = session.durationSeconds;
  const firstDay = Math.floor(start / DAY_MS) * DAY_MS;
  if (end - start <= 0) return [shareOf(userId, firstDay, duration)];
  const shares: Share[] = [];
  let assigned = 0;
  for (let day = firstDay; day < end; day += DAY_MS) {
    const overlap = Math.min(end, day + DAY_MS) - Math.max(start, day);
    const seconds = Math.floor((duration * overlap) / (end - start));
    shares.push(shareOf(userId, day, seconds));
    assigned += seconds;
  }
  (shares[shares.length - 1] as Share).seconds += duration - assigned;
  return shares.filter((share) => share.seconds > 0);
}

function shareOf(userId: string, dayMs: number, seconds: number): Share {
  // The player as its keys name it (./user-key.ts): a lone surrogate would be U+FFFD, another player's, in Redis.
  return { key: `${userKey(userId)}:${new Date(dayMs).toISOString().slice(0, 10)}`, day: dayMs / DAY_MS, seconds };
}
