/**
 * What the flusher (./flusher.ts) is handed instead of importing it. The flusher is a chunk of its own, loaded
 * while the tracker starts up; any module it shared with the tracker's bundle would make a bundler split that
 * bundle into one more file a game downloads before it can call the SDK (DESIGN section 11). So the flusher
 * imports nothing the tracker does, and everything it shares comes through here.
 */
import { backoffDelay, isTransientStatus } from '../http/backoff.js';
import { chainLock } from '../chain-lock.js';
import type { Platform } from '../platform.js';
import { playtimeBody, sendToRelay, type RelayTarget, type SendOutcome } from '../relay/sender.js';
import type { RelaySession } from '../relay/protocol.js';
import { MAX_BULK_ITEMS } from '../schema/playtime-rules.js';
import { chunkBySize, utf8Length } from './body-size.js';
import type { TrackedSession } from './events.js';

/** The tools of one player's flusher; see {@link flushTools}. */
export interface FlushTools {
  /** POSTs one batch to the relay and sorts the answer (core/relay/sender.ts). */
  send(sessions: RelaySession[], keepalive: boolean, signal: AbortSignal): Promise<SendOutcome>;
  /** Splits a batch into bodies a keepalive request may carry; a session too large alone is `oversized`. */
  keepaliveChunks<T extends { session: TrackedSession }>(items: T[]): { chunks: T[][]; oversized: T[] };
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
  return {
    send: (sessions, keepalive, signal) => sendToRelay({ fetch: platform.fetch, relay, sessions, isTest, keepalive, signal, now: () => platform.now() }),
    keepaliveChunks: (items) => chunkBySize(items, utf8Length(playtimeBody([], isTest, SENT_AT_SAMPLE))),
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
