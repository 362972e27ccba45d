/**
 * Sends the queue to the relay: one flusher at a time (a lock across instances), batches of at most 1000,
 * keepalive chunks under 64 KiB, per-item results, bisection of rejected batches, backoff with full jitter
 * and `Retry-After`; and, for a page being left, one keepalive request at once ({@link Flusher.sendAtOnce}).
 * Part of the tracker's own code: every start needs it (DESIGN section 11).
 * @see DESIGN section 5
 */
import { backoffDelay, isTransientStatus } from '../http/backoff.js';
import type { Platform } from '../platform.js';
import type { ErrorDetail } from '../schema/errors.js';
import type { BulkPlaytimeResult, PlaytimeItemResult } from '../schema/playtime.js';
import { MAX_BULK_ITEMS } from '../schema/playtime-rules.js';
import type { DropReason, TrackerErrorEvent, TrackerEvents } from './events.js';
import { sendToRelay, type RelayTarget } from '../relay/sender.js';
import type { KeepaliveSizer } from './body-size.js';
import { presentFrame } from './present-frame.js';
import type { QueuedSession, SessionQueue } from './queue.js';
import { unref } from '../unref.js';

/**
 * What asked for a flush. assumed: every trigger waits out a `Retry-After` (the relay asked for it); the
 * automatic ones (`interval`, `threshold`, `startup`) also wait out the jittered backoff, while `manual`
 * (the game asked), `network` (the likely cause is gone) and `background` (the last chance) do not. `network` skips
 * it once until the relay answers: a connection flapping every few seconds (a train, a lift, a weak signal) sent one
 * failing request per return, never backing off.
 */
export type FlushTrigger = 'manual' | 'interval' | 'threshold' | 'background' | 'network' | 'startup' | 'retry';

/** Retry timing after a transient failure: full jitter, 1 s doubling up to 5 min. */
export const FLUSH_BACKOFF = { baseMs: 1_000, maxMs: 300_000 } as const;

const WAITS_FOR_BACKOFF: readonly FlushTrigger[] = ['interval', 'threshold', 'startup'];


/** Whether the drain goes on (`true`) or stops until the next trigger (`false`). */
type Step = boolean;

/** Drains the queue through the relay; see {@link FlushTrigger} for when it may start. */
export interface Flusher {
  /** Flushes now if `trigger` may start one; joins the flush already running. */
  flush(trigger: FlushTrigger): Promise<void>;
  /**
   * Sends `batch` (marked in flight) in one keepalive request with `headers`, calling `fetch` before it returns: no
   * lock (the service de-duplicates). If the page lives on, the answer is acted on as a flush's. For a page being
   * left (./page-exit.ts); {@link Flusher.dispose} does not abort it (a game's dispose as its page is left would
   * cancel the request meant to outlive the page, in browsers that follow the spec's abort for keepalive). Resolves
   * false when the service did not answer for every session (a failed request, a 503, an answer left incomplete).
   */
  sendAtOnce(batch: QueuedSession[], headers: Record<string, string>): Promise<boolean>;
  /**
   * Stops timers and aborts a flush's request in flight (its sessions stay queued for the next start-up).
   * Resolves once a flush holding the lock has wound down, so its last events reach the listeners; a flush
   * still waiting for the lock (another tab's turn) is not waited for: it gives up when its turn comes.
   */
  dispose(): Promise<void>;
}

/**
 * Whether a failed request was refused by the host before it left the device (a mini-game's request-domain
 * list): the developer must act, so it is reported, not only retried.
 */
const isBlocked = (error: unknown) => (error as { code?: unknown } | undefined)?.code === 'REQUEST_BLOCKED';

/**
 * Requests in a row without an answer (`fetch` rejected, or no answer within the time-out: a host that drops
 * packets) while the platform said it was online before the relay is reported unreachable, as Unity's managed
 * flusher counts them. assumed: 3: one or two are a flaky network; a CORS refusal fails every time.
 */
export const UNREACHABLE_AFTER = 3;

/**
 * The message of the `relay` error a relay that cannot be reached while online gets: the likely causes in a few words
 * (docs/guides/tracker.md explains each), a web page's (`page`: a CORS refusal, mixed content) or an app's (cleartext
 * http:// refused: Android 9+, iOS ATS), and everywhere an ad blocker, firewall or Content-Security-Policy blocking the
 * host, a wrong URL. An app was told of CORS and mixed content, which do not exist there.
 */
export const unreachableMessage = (url: string, page?: unknown) =>
  `Relay ${url} unreachable ${UNREACHABLE_AFTER} times while online (${page ? 'CORS, mixed content' : 'cleartext http://'}, blocked host or wrong URL?); sessions kept`;

/**
 * The {@link Flusher} of one player's queue, sending to `relay` under that player's flush `lock`; `sizer`: the page
 * exit's sizing of keepalive bodies, where there is one (without it a background flush is an ordinary flush, no
 * `keepalive`). `clockMoved` tells how far the device clock has been moved (see `clockWatch`); nothing is sent while
 * `enabled()` is false (the player opted out). Positional parameters: a bundler shortens them, not an options
 * object's names.
 */
export function createFlusher(
  platform: Platform,
  queue: SessionQueue,
  relay: RelayTarget,
  isTest: boolean | undefined,
  sizer: KeepaliveSizer | undefined,
  lock: (task: () => Promise<void>) => Promise<void>,
  events: TrackerEvents,
  clockMoved: () => number,
  enabled: () => boolean,
): Flusher {
  const abort = new AbortController();
  let running: Promise<void> | undefined;
  /** The part of `running` that holds the lock (not the wait for it). */
  let holding: Promise<void> | undefined;
  /** Another trigger arrived during a drain: drain once more when it ends (it may have missed new sessions). */
  let again = false;
  /** Send with `keepalive` (the game went to the background during or before this flush). */
  let keepalive = false;
  let attempt = 0;
  /** Not 0 once a `network` trigger skipped the backoff since the relay last answered: the next ones wait it out. */
  let skipped = 0;
  let backoffUntil = 0;
  let retryAfterUntil = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  /** Requests in a row that got no answer while online (see {@link UNREACHABLE_AFTER}). */
  let unreachable = 0;
  /** A `relay` error was reported since the relay last answered with results: the next waits for a success. */
  let relayReported = 0;
  /** An `error` event; `status` only when the relay answered. */
  const emitError = (kind: TrackerErrorEvent['kind'], error: unknown, status?: number) =>
    events.emit('error', { kind, error, ...(status !== undefined && { status }) });
  const relayError = (error: unknown, status?: number) => {
    if (!relayReported) emitError('relay', error, status);
    relayReported = 1;
  };
  const release = (items: QueuedSession[]) => queue.release(items.map((item) => item.key));

  const mayStart = (trigger: FlushTrigger): boolean => {
    if (disposed || !enabled() || platform.network?.isOnline() === false) return false;
    if (trigger === 'retry') return true; // its timer was set for the end of the wait
    const now = platform.monotonic();
    return now >= retryAfterUntil && (now >= backoffUntil || !(WAITS_FOR_BACKOFF.includes(trigger) || (trigger === 'network' && skipped++)));
  };

  /**
   * Drains while a trigger came during the last drain, under the lock (`holding` is this, once the lock is taken:
   * a settled one left there is awaited at once by `dispose`). Not after dispose: the lock may come long after.
   */
  const drainAll = async () => {
    while (!disposed) {
      again = false;
      if (!(await drain()) || !again) break;
    }
  };

  /** Sends every queued session once (oldest first), until the queue is empty or a failure says to wait. */
  const drain = async (): Promise<Step> => {
    await queue.sync();
    const tried = new Set<string>();
    while (!disposed && enabled()) {
      const oldest = queue.oldest(MAX_BULK_ITEMS, tried);
      if (oldest.length === 0) return true;
      for (const key of oldest) tried.add(key);
      const moved = clockMoved();
      const nowMs = platform.now();
      // A loop, not a closure: a closure over this loop's variables makes Babel wrap the whole loop body in a function.
      const batch: QueuedSession[] = [];
      for (const item of await queue.read(oldest)) batch.push(presentFrame(item, moved, nowMs));
      if (batch.length === 0) continue;
      // Keepalive where a page may go away (its page exit sizes the bodies); elsewhere an ordinary request.
      const keepaliveSizer = keepalive ? sizer : undefined;
      let chunks = [batch];
      /**
       * The chunk sent as an ordinary request: all of it without keepalive; with it, what no keepalive body may carry
       * now, sent last. A page whose exit requests hold most of its 64 KiB (a backlog) has the flush after them find
       * every session too large for what is left: released unsent, no retry due, they waited for the tab to come back
       * (a phone that kills the hidden tab: a next visit). An ordinary request completes while the page lives (p61).
       */
      let ordinary = batch;
      if (keepaliveSizer) {
        const sized = keepaliveSizer.chunks(batch);
        chunks = sized.chunks;
        chunks.push((ordinary = sized.oversized));
      }
      for (let index = 0; index < chunks.length; index++) {
        const chunk = chunks[index]!;
        if (chunk[0] && !(await send(chunk, chunk !== ordinary))) {
          release(chunks.slice(index).flat());
          return false;
        }
      }
    }
    return false;
  };

  /**
   * Sends one batch and acts on the outcome; a rejected or too-large batch is split and each half sent. With
   * `headers`, `fetch` is called before this function first yields (see {@link Flusher.sendAtOnce}).
   */
  const send = async (batch: QueuedSession[], withKeepalive: boolean, headers?: Record<string, string>): Promise<Step> => {
    let outcome;
    try {
      const sessions = batch.map((item) => item.session);
      // The keepalive bytes in flight are counted before the request starts.
      const sent = withKeepalive && sizer?.sending(sessions);
      // POSTs the batch and sorts the answer (core/relay/sender.ts); with `headers` (a page's exit), `fetch` is called
      // before it returns, and no dispose aborts it. `@__NOINLINE__`: terser (the IIFE) pasted it here otherwise (8 B gzip, p36).
      const sending = /* @__NOINLINE__ */ sendToRelay(platform, relay, sessions, isTest, withKeepalive, headers ? undefined : abort.signal, headers);
      outcome = await (sent ? sending.finally(sent) : sending);
    } catch (error) {
      release(batch);
      disposed || emitError('headers', error); // after dispose: the wait for the game's headers was aborted, not failed
      return false;
    }
    const { kind } = outcome;
    if (kind === 'results') return settle(batch, outcome.result);
    if (kind === 'invalid' || kind === 'too-large') {
      if (batch.length > 1) return bisect(batch, withKeepalive);
      return drop(batch[0]!, kind, outcome.message ?? 'the relay answered 413 for this session alone', outcome.details);
    }
    release(batch);
    if (kind === 'auth') emitError(kind, outcome.error, outcome.status);
    else {
      // Network errors, time-outs, 408, 429 and 5xx are the weather; any other status (a 200 that is not the
      // relay's answer, e.g. a captive portal's login page, included) means the relay is misconfigured.
      const status = outcome.status;
      const error = outcome.error;
      const noAnswer = status === undefined && error !== undefined && platform.network?.isOnline() === true;
      unreachable = noAnswer ? unreachable + 1 : 0;
      if (isBlocked(error)) relayError(error);
      else if (unreachable >= UNREACHABLE_AFTER) relayError(Object.assign(new Error(unreachableMessage(relay.url, sizer)), { cause: error }));
      else if (status !== undefined && !isTransientStatus(status)) relayError(new Error(outcome.reason), status);
      backOff(outcome.retryAfterMs);
    }
    return false;
  };

  const bisect = async (batch: QueuedSession[], withKeepalive: boolean): Promise<Step> => {
    const middle = Math.ceil(batch.length / 2);
    if (!(await send(batch.slice(0, middle), withKeepalive))) {
      release(batch.slice(middle));
      return false;
    }
    return send(batch.slice(middle), withKeepalive);
  };

  /**
   * SUCCESS and SKIPPED leave the queue (`flushed`); FAILED is dead-lettered (`dropped`); unanswered items stay.
   * assumed: a FAILED item is a rejection of that session's content. The spec gives it only a free-text
   * `error`, so no other kind of item failure can be told apart (a failure of the service itself answers
   * the whole request with an error status, which keeps everything).
   */
  const settle = async (batch: QueuedSession[], result: BulkPlaytimeResult): Promise<Step> => {
    // The relay answered: the backoff, the count of unanswered requests and the reported relay error start afresh.
    attempt = backoffUntil = retryAfterUntil = unreachable = relayReported = skipped = 0;
    clearTimeout(retryTimer);
    /**
     * The first answer for each sessionId, given to every item of that id: two windows of one player may both have
     * queued a session (a recovered copy), and both copies leave the queue on its one answer (`flushed` tells it once).
     * assumed: a refused session stored twice is reported `dropped` for each copy.
     */
    const answers = new Map<string, PlaytimeItemResult>();
    for (const itemResult of result.results) answers.get(itemResult.sessionId) || answers.set(itemResult.sessionId, itemResult);
    /** The results of acknowledged items, by key. */
    const acknowledged = new Map<string, PlaytimeItemResult>();
    const failed: Array<[item: QueuedSession, error: string]> = [];
    const unanswered: QueuedSession[] = [];
    for (const item of batch) {
      const itemResult = answers.get(item.session.sessionId);
      if (!itemResult) unanswered.push(item);
      else if (itemResult.status === 'FAILED') failed.push([item, itemResult.error ?? 'FAILED']);
      else acknowledged.set(item.key, itemResult);
    }
    // In the order asked: `remove` resolves the keys that left the queue in that order; a Set tells two copies' answer once.
    const results = [...new Set([...(await queue.remove([...acknowledged.keys()], true))].map((key) => acknowledged.get(key)!))];
    if (results.length) events.emit('flushed', { results });
    // Indexed, not destructured: Babel turns a destructuring loop variable into a helper call.
    for (const failure of failed) await drop(failure[0], 'rejected', failure[1]);
    if (!unanswered.length) return true;
    // assumed: a relay that leaves items out of its answer is treated as a transient failure for those items.
    release(unanswered);
    emitError('relay', new Error(`The relay answered ${batch.length - unanswered.length} of ${batch.length} sessions`));
    backOff();
    return false;
  };

  const drop = async (item: QueuedSession, reason: DropReason, error: string, details?: ErrorDetail[]): Promise<Step> => {
    const { key, session } = item;
    if ((await queue.remove([key], true)).has(key)) events.emit('dropped', { sessionId: session.sessionId, reason, session, error, ...(details && { details }) });
    return true;
  };

  /**
   * assumed: a `Retry-After` beyond the backoff ceiling (5 min) is waited for 5 min only: a relay asking for
   * days would otherwise park the queue longer than most players keep a game (and overflow timers).
   */
  const backOff = (requestedMs?: number) => {
    if (disposed) return;
    const retryAfterMs = requestedMs && Math.min(requestedMs, FLUSH_BACKOFF.maxMs);
    const delay = Math.max(retryAfterMs ?? 0, backoffDelay(attempt++, FLUSH_BACKOFF));
    const now = platform.monotonic();
    backoffUntil = now + delay;
    if (retryAfterMs !== undefined) retryAfterUntil = now + retryAfterMs;
    clearTimeout(retryTimer);
    retryTimer = unref(setTimeout(() => void flusher.flush('retry'), delay));
  };

  const flusher: Flusher = {
    flush(trigger) {
      if (running) {
        again = true;
        // Going to the background mid-flush: the rest of this flush goes out as keepalive requests.
        if (trigger === 'background') keepalive = true;
        return running;
      }
      if (!mayStart(trigger)) return Promise.resolve();
      keepalive = trigger === 'background';
      running = lock(() => (holding = drainAll()))
        .catch((error: unknown) => emitError('lock', error))
        .finally(() => (running = undefined));
      return running;
    },
    sendAtOnce: (batch, headers) => send(batch, true, headers),
    async dispose() {
      disposed = true;
      clearTimeout(retryTimer);
      abort.abort();
      await holding?.catch(() => {});
    },
  };
  return flusher;
}
