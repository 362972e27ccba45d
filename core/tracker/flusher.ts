/**
 * Sends the queue to the relay: one flusher at a time (a lock across instances), batches of at most 1000,
 * keepalive chunks under 64 KiB, per-item results, bisection of rejected batches, backoff with full jitter
 * and `Retry-After`.
 * @see DESIGN section 5
 */
import { chainLock } from '../chain-lock.js';
import { backoffDelay, isTransientStatus } from '../http/backoff.js';
import type { Platform } from '../platform.js';
import type { ErrorDetail } from '../schema/errors.js';
import type { BulkPlaytimeResult, PlaytimeItemResult } from '../schema/playtime.js';
import { MAX_BULK_ITEMS } from '../schema/playtime-rules.js';
import { playtimeBody, sendToRelay, type RelayTarget } from '../relay/sender.js';
import { chunkBySize, utf8Length } from './body-size.js';
import type { DropReason, TrackerEvents } from './events.js';
import type { QueuedSession, SessionQueue } from './queue.js';

/**
 * What asked for a flush. assumed: every trigger waits out a `Retry-After` (the relay asked for it); the
 * automatic ones (`interval`, `threshold`, `startup`) also wait out the jittered backoff, while `manual`
 * (the game asked), `network` (the likely cause is gone) and `background` (the last chance) do not.
 */
export type FlushTrigger = 'manual' | 'interval' | 'threshold' | 'background' | 'network' | 'startup' | 'retry';

/** Retry timing after a transient failure: full jitter, 1 s doubling up to 5 min. */
export const FLUSH_BACKOFF = { baseMs: 1_000, maxMs: 300_000 } as const;

const WAITS_FOR_BACKOFF: ReadonlySet<FlushTrigger> = new Set(['interval', 'threshold', 'startup']);

/** Everything a flusher works with. */
export interface FlusherConfig {
  platform: Platform;
  queue: SessionQueue;
  relay: RelayTarget;
  isTest: boolean | undefined;
  /** Lock name, `{storageKey}:flush`. */
  lockName: string;
  events: TrackerEvents;
}

type Step = 'continue' | 'stop';

/** Drains the queue through the relay; see {@link FlushTrigger} for when it may start. */
export class Flusher {
  readonly #config: FlusherConfig;
  readonly #abort = new AbortController();
  #running: Promise<void> | undefined;
  /** The part of `#running` that holds the lock (not the wait for it). */
  #holding: Promise<void> | undefined;
  /** Another trigger arrived during a drain: drain once more when it ends (it may have missed new sessions). */
  #again = false;
  /** Send with `keepalive` (the game went to the background during or before this flush). */
  #keepalive = false;
  #attempt = 0;
  #backoffUntil = 0;
  #retryAfterUntil = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #disposed = false;

  constructor(config: FlusherConfig) {
    this.#config = config;
  }

  /** Flushes now if `trigger` may start one; joins the flush already running. */
  flush(trigger: FlushTrigger): Promise<void> {
    if (this.#running) {
      this.#again = true;
      // Going to the background mid-flush: the rest of this flush goes out as keepalive requests.
      if (trigger === 'background') this.#keepalive = true;
      return this.#running;
    }
    if (!this.#mayStart(trigger)) return Promise.resolve();
    this.#keepalive = trigger === 'background';
    this.#running = this.#exclusive(async () => {
      do {
        this.#again = false;
        if ((await this.#drain()) === 'stop') break;
      } while (this.#again && !this.#disposed);
    })
      .catch((error: unknown) => this.#config.events.emit('error', { kind: 'lock', error }))
      .finally(() => (this.#running = undefined));
    return this.#running;
  }

  /**
   * Stops timers and aborts the request in flight (its sessions stay queued for the next start-up).
   * Resolves once a flush holding the lock has wound down, so its last events reach the listeners; a flush
   * still waiting for the lock (another tab's turn) is not waited for: it gives up when its turn comes.
   */
  dispose(): Promise<void> {
    this.#disposed = true;
    clearTimeout(this.#retryTimer);
    this.#abort.abort();
    return this.#holding?.catch(() => undefined) ?? Promise.resolve();
  }

  #mayStart(trigger: FlushTrigger): boolean {
    const { platform } = this.#config;
    if (this.#disposed || platform.network?.isOnline() === false) return false;
    if (trigger === 'retry') return true; // its timer was set for the end of the wait
    const now = platform.monotonic();
    if (now < this.#retryAfterUntil) return false;
    return !(WAITS_FOR_BACKOFF.has(trigger) && now < this.#backoffUntil);
  }

  #exclusive(task: () => Promise<void>): Promise<void> {
    const { platform, lockName } = this.#config;
    const guarded = async () => {
      if (this.#disposed) return;
      this.#holding = task();
      try {
        await this.#holding;
      } finally {
        this.#holding = undefined;
      }
    };
    return platform.lock ? platform.lock(lockName, guarded) : chainLock(localLocks, lockName, guarded);
  }

  /** Sends every queued session once (oldest first), until the queue is empty or a failure says to wait. */
  async #drain(): Promise<Step> {
    const { queue } = this.#config;
    await queue.sync();
    const tried = new Set<string>();
    while (!this.#disposed) {
      const keys = queue.oldest(MAX_BULK_ITEMS, tried);
      if (keys.length === 0) return 'continue';
      for (const key of keys) tried.add(key);
      const batch = await queue.read(keys);
      if (batch.length === 0) continue;
      const keepalive = this.#keepalive;
      const { chunks, oversized } = keepalive ? chunkBySize(batch, utf8Length(playtimeBody([], this.#config.isTest))) : { chunks: [batch], oversized: [] };
      // assumed: a session too large for a keepalive body alone waits for the next ordinary flush.
      queue.release(oversized.map((item) => item.key));
      for (const [index, chunk] of chunks.entries()) {
        if ((await this.#send(chunk, keepalive)) === 'stop') {
          queue.release(chunks.slice(index).flatMap((rest) => rest.map((item) => item.key)));
          return 'stop';
        }
      }
    }
    return 'stop';
  }

  /** Sends one batch and acts on the outcome; a rejected or too-large batch is split and each half sent. */
  async #send(batch: QueuedSession[], keepalive: boolean): Promise<Step> {
    const { platform, relay, isTest, queue, events } = this.#config;
    let outcome;
    try {
      const sessions = batch.map((item) => item.session);
      outcome = await sendToRelay({ fetch: platform.fetch, relay, sessions, isTest, keepalive, signal: this.#abort.signal, now: () => platform.now() });
    } catch (error) {
      queue.release(batch.map((item) => item.key));
      events.emit('error', { kind: 'headers', error });
      return 'stop';
    }
    switch (outcome.kind) {
      case 'results':
        return this.#settle(batch, outcome.result);
      case 'invalid':
        if (batch.length === 1) return this.#drop(batch[0]!, 'invalid', outcome.message, outcome.details);
        return this.#bisect(batch, keepalive);
      case 'too-large':
        if (batch.length === 1) return this.#drop(batch[0]!, 'too-large', 'the relay answered 413 for this session alone');
        return this.#bisect(batch, keepalive);
      case 'auth':
        queue.release(batch.map((item) => item.key));
        events.emit('error', { kind: 'auth', error: outcome.error, status: outcome.status });
        return 'stop';
      case 'transient':
        queue.release(batch.map((item) => item.key));
        // Network errors, time-outs, 408, 429 and 5xx are the weather; any other status means the relay is misconfigured.
        if (outcome.status !== undefined && !isTransientStatus(outcome.status)) {
          events.emit('error', { kind: 'relay', error: new Error(outcome.reason), status: outcome.status });
        }
        this.#backOff(outcome.retryAfterMs);
        return 'stop';
    }
  }

  async #bisect(batch: QueuedSession[], keepalive: boolean): Promise<Step> {
    const middle = Math.ceil(batch.length / 2);
    for (const [index, half] of [batch.slice(0, middle), batch.slice(middle)].entries()) {
      if ((await this.#send(half, keepalive)) === 'stop') {
        if (index === 0) this.#config.queue.release(batch.slice(middle).map((item) => item.key));
        return 'stop';
      }
    }
    return 'continue';
  }

  /**
   * SUCCESS and SKIPPED leave the queue (`flushed`); FAILED is dead-lettered (`dropped`); unanswered items stay.
   * assumed: a FAILED item is a rejection of that session's content. The spec gives it only a free-text
   * `error`, so no other kind of item failure can be told apart (a failure of the service itself answers
   * the whole request with an error status, which keeps everything).
   */
  async #settle(batch: QueuedSession[], result: BulkPlaytimeResult): Promise<Step> {
    const { queue, events } = this.#config;
    this.#resetBackoff();
    const unanswered = new Map(batch.map((item) => [item.session.sessionId, item]));
    const acknowledged: Array<{ key: string; result: PlaytimeItemResult }> = [];
    const failed: Array<{ item: QueuedSession; error: string }> = [];
    for (const itemResult of result.results) {
      const item = unanswered.get(itemResult.sessionId);
      if (!item) continue;
      unanswered.delete(itemResult.sessionId);
      if (itemResult.status === 'FAILED') failed.push({ item, error: itemResult.error ?? 'FAILED without an error message' });
      else acknowledged.push({ key: item.key, result: itemResult });
    }
    const removed = await queue.remove(acknowledged.map((entry) => entry.key));
    const results = acknowledged.filter((entry) => removed.has(entry.key)).map((entry) => entry.result);
    if (results.length) events.emit('flushed', { results });
    for (const { item, error } of failed) await this.#drop(item, 'rejected', error);
    if (unanswered.size === 0) return 'continue';
    // assumed: a relay that leaves items out of its answer is treated as a transient failure for those items.
    queue.release([...unanswered.values()].map((item) => item.key));
    events.emit('error', { kind: 'relay', error: new Error(`The relay answered for ${batch.length - unanswered.size} of ${batch.length} sessions`) });
    this.#backOff(undefined);
    return 'stop';
  }

  async #drop(item: QueuedSession, reason: DropReason, error: string, details?: ErrorDetail[]): Promise<Step> {
    const removed = await this.#config.queue.remove([item.key]);
    if (removed.has(item.key)) {
      const sessionId = item.session.sessionId;
      this.#config.events.emit('dropped', { sessionId, reason, session: item.session, error, ...(details ? { details } : {}) });
    }
    return 'continue';
  }

  /**
   * assumed: a `Retry-After` beyond the backoff ceiling (5 min) is waited for 5 min only: a relay asking for
   * days would otherwise park the queue longer than most players keep a game (and overflow timers).
   */
  #backOff(requestedMs: number | undefined): void {
    if (this.#disposed) return;
    const retryAfterMs = requestedMs === undefined ? undefined : Math.min(requestedMs, FLUSH_BACKOFF.maxMs);
    const delay = Math.max(retryAfterMs ?? 0, backoffDelay(this.#attempt, FLUSH_BACKOFF));
    this.#attempt++;
    const now = this.#config.platform.monotonic();
    this.#backoffUntil = now + delay;
    if (retryAfterMs !== undefined) this.#retryAfterUntil = now + retryAfterMs;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => void this.flush('retry'), delay);
  }

  #resetBackoff(): void {
    this.#attempt = 0;
    this.#backoffUntil = 0;
    this.#retryAfterUntil = 0;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
  }
}

/**
 * Without `platform.lock`: exclusive within this JavaScript realm, per lock name.
 * assumed: keyed by name only (not by store object), since two views of one store need not be one object;
 * trackers on different stores with the same `storageKey` merely take turns.
 */
const localLocks = new Map<string, Promise<void>>();
