/**
 * What the flusher (./flusher.ts) is handed: the relay sender bound to one player's relay, the keepalive sizing,
 * the flush lock and the backoff. It also keeps the game's headers from the last successful `relay.headers()`
 * call, so a page being left can send with them at once, from within the event handler (DESIGN section 5).
 */
import { backoffDelay, isTransientStatus } from '../http/backoff.js';
import { chainLock } from '../chain-lock.js';
import { resolveHeaders, withoutContentType } from '../http/exchange.js';
import type { Platform } from '../platform.js';
import { playtimeBody, sendToRelay, type RelayTarget, type SendOutcome } from '../relay/sender.js';
import type { RelaySession } from '../relay/protocol.js';
import { MAX_BULK_ITEMS } from '../schema/playtime-rules.js';
import { chunkBySize, KEEPALIVE_BODY_LIMIT, utf8Length } from './body-size.js';
import type { TrackedSession } from './events.js';

/** The tools of one player's flusher; see {@link flushTools}. */
export interface FlushTools {
  /** The relay's mount URL (named in errors). */
  url: string;
  /**
   * POSTs one batch to the relay and sorts the answer (core/relay/sender.ts). `exitHeaders`: send with these
   * (see {@link FlushTools.exitHeaders}) and call `fetch` before returning; otherwise `relay.headers` is asked first.
   */
  send(sessions: RelaySession[], keepalive: boolean, signal: AbortSignal, exitHeaders?: Record<string, string>): Promise<SendOutcome>;
  /**
   * The headers a request sent while the page is being left carries: the game's static headers, or what its
   * `relay.headers()` function gave last time it succeeded; undefined when it has not succeeded yet.
   */
  exitHeaders(): Record<string, string> | undefined;
  /** Asks `relay.headers()` once now when no answer of it is kept yet (a session started: its exit may come soon). */
  warmHeaders(): void;
  /** Splits a batch into bodies a keepalive request may carry (each under `limit` bytes); a session too large alone is `oversized`. */
  keepaliveChunks<T extends { session: TrackedSession }>(items: T[], limit?: number): { chunks: T[][]; oversized: T[] };
  /** The UTF-8 size of the body that carries `sessions`. */
  bodyBytes(sessions: RelaySession[]): number;
  /** Runs `task` under the player's flush lock. */
  lock(task: () => Promise<void>): Promise<void>;
  /** The wait before retry `attempt` (core/http/backoff.ts). */
  backoffDelay: typeof backoffDelay;
  /** Whether a status is the weather (408, 429, 5xx), not a misconfigured relay. */
  isTransientStatus: typeof isTransientStatus;
  /** The most sessions in one batch: the spec's bulk limit. */
  maxItems: number;
}

/** A `sentAt` of the length every one has, to measure a keepalive body's envelope. */
const SENT_AT_SAMPLE = new Date(0).toISOString();

/** The {@link FlushTools} of the player whose flush lock is `lockName`, sending to `relay`. */
export function flushTools(platform: Platform, relay: RelayTarget, isTest: boolean | undefined, lockName: string): FlushTools {
  const { headers } = relay;
  /** The last headers `relay.headers()` resolved to (a function's); static headers are read as they are. */
  let lastHeaders: Record<string, string> | undefined;
  const resolved = () => resolveHeaders(headers).then((value) => (lastHeaders = value));
  const bodyBytes = (sessions: RelaySession[]) => utf8Length(playtimeBody(sessions, isTest, SENT_AT_SAMPLE));
  return {
    url: relay.url,
    send(sessions, keepalive, signal, exitHeaders) {
      const send = (resolvedHeaders: Record<string, string>) => sendToRelay({ fetch: platform.fetch, relay, sessions, isTest, keepalive, signal, resolvedHeaders, now: () => platform.now() });
      return exitHeaders ? send(exitHeaders) : resolved().then(send);
    },
    exitHeaders: () => (typeof headers === 'function' ? lastHeaders : withoutContentType(headers ?? {})),
    warmHeaders() {
      if (typeof headers === 'function' && !lastHeaders) resolved().catch(() => undefined); // a failure is reported by the next flush that asks
    },
    keepaliveChunks: (items, limit = KEEPALIVE_BODY_LIMIT) => chunkBySize(items, bodyBytes([]), limit),
    bodyBytes,
    lock: (task) => withLock(platform, lockName, task),
    backoffDelay,
    isTransientStatus,
    maxItems: MAX_BULK_ITEMS,
  };
}

/** Runs `task` under the lock `name`: across tabs with `platform.lock`, within this realm without it. */
function withLock(platform: Platform, name: string, task: () => Promise<void>): Promise<void> {
  return platform.lock ? platform.lock(name, task) : chainLock(localLocks, name, task);
}

/**
 * Without `platform.lock`: exclusive within this JavaScript realm, per lock name.
 * assumed: keyed by name only (not by store object), since two views of one store need not be one object;
 * trackers on different stores with the same `storageKey` merely take turns.
 */
const localLocks = new Map<string, Promise<void>>();
