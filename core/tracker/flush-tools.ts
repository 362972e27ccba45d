/**
 * The flush lock the flusher (./flusher.ts) is handed, one per player: no two flushers of one player's queue send at once
 * (two tabs, two trackers). The flusher sends with the page exit's keepalive sizing itself.
 */
import { chainLock } from '../chain-lock.js';
import type { Platform } from '../platform.js';

/** Runs `task` under the lock `name`: across tabs with `platform.lock`, within this realm without it. */
export function withLock(platform: Platform, name: string, task: () => Promise<void>): Promise<void> {
  return platform.lock ? platform.lock(name, task) : chainLock(localLocks, name, task);
}

/**
 * Without `platform.lock`: exclusive within this JavaScript realm, per lock name.
 * assumed: keyed by name only (not by store object), since two views of one store need not be one object;
 * trackers on different stores with the same `storageKey` merely take turns.
 */
const localLocks = new Map<string, Promise<void>>();
