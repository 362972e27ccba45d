/**
 * What the flusher (./flusher.ts) is handed: the relay sender bound to one player's relay, the keepalive sizing (a page's)
 * and the flush lock.
 */
import { chainLock } from '../chain-lock.js';
import type { Platform } from '../platform.js';
import { sendToRelay, type RelayTarget, type SendOutcome } from '../relay/sender.js';
import type { RelaySession } from '../relay/protocol.js';
import type { KeepaliveSizer } from './body-size.js';

/** The tools of one player's flusher; see {@link flushTools}. */
export interface FlushTools {
  /** The relay's mount URL (named in errors). */
  url: string;
  /**
   * POSTs one batch to the relay and sorts the answer (core/relay/sender.ts). `headers`: send with these, calling
   * `fetch` before returning (a page being left, ./page-exit.ts); otherwise `relay.headers` is asked first.
   */
  send(sessions: RelaySession[], keepalive: boolean, signal: AbortSignal, headers?: Record<string, string>): Promise<SendOutcome>;
  /**
   * Splits a batch into bodies a keepalive request may carry ({@link KeepaliveSizer.chunks}); only where the platform
   * has a page exit: without one a background flush is an ordinary flush (no `keepalive`).
   */
  keepaliveChunks?: KeepaliveSizer['chunks'];
  /** Runs `task` under the player's flush lock. */
  lock(task: () => Promise<void>): Promise<void>;
}

/**
 * The {@link FlushTools} of the player whose flush lock is `lockName`, sending to `relay`; `keepalive`: the page exit's
 * sizing of keepalive bodies, where there is one.
 */
export function flushTools(platform: Platform, relay: RelayTarget, isTest: boolean | undefined, lockName: string, keepalive?: KeepaliveSizer): FlushTools {
  return {
    url: relay.url,
    send(sessions, withKeepalive, signal, headers) {
      const sent = withKeepalive ? keepalive?.sending(sessions) : undefined;
      const outcome = sendToRelay({ fetch: platform.fetch, relay, sessions, isTest, keepalive: withKeepalive, signal, resolvedHeaders: headers, now: () => platform.now() });
      return sent ? outcome.finally(sent) : outcome;
    },
    keepaliveChunks: keepalive?.chunks,
    lock: (task) => withLock(platform, lockName, task),
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
