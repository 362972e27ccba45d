/**
 * The cross-tab lock (`Platform.lock`): the Web Locks API where the browser has it, and where it does not a
 * lease in the SDK's own IndexedDB store (./lease-lock.ts), whose code is imported only there.
 * @see DESIGN sections 4 and 5
 */
import { chainLock } from '../../core/chain-lock.js';
import { once } from '../shared/once.js';
import { importLeaseLock } from './lease-lock-import.js';
import type { BrowserStorage } from './storage.js';

/** A lock function as `Platform.lock` expects it. */
export type LockFunction = <T>(name: string, task: () => Promise<T>) => Promise<T>;

/** Options of {@link createBrowserLock}. */
export interface BrowserLockOptions {
  /** The Web Locks API. @defaultValue `navigator.locks` (the lease is used where it is missing) */
  locks?: LockManager | undefined;
  /** Where leases are kept (the platform's storage). */
  storage: BrowserStorage;
  /** How long a lease lasts without renewal, ms; it is renewed every third of that. @defaultValue 10000 */
  leaseMs?: number;
  /** The longest wait between two attempts to take a held lease, ms. @defaultValue 500 */
  pollMs?: number;
}

/**
 * Creates the lock: `locks.request(name, task)` with Web Locks (a lock within the page where they are denied, an
 * opaque origin), else the lease, whose code loads with the first lock (the tracker takes one at start, while the
 * page that just loaded is online); a failed load is retried by the next lock.
 * @example
 * ```ts
 * const lock = createBrowserLock({ storage: createIdbStorage() });
 * await lock('game-campaign:flush', async () => sendQueue());
 * ```
 */
export function createBrowserLock(options: BrowserLockOptions): LockFunction {
  const { locks } = options;
  if (locks) {
    /**
     * Web Locks refuse an opaque origin (a sandboxed iframe without `allow-same-origin`: "Access to the Locks API is
     * denied in this context", `SecurityError`), where every flush would fail on its lock and nothing would be sent
     * while the page runs. Such a page's storage is its own (IndexedDB is refused too: memory), so no other tab
     * shares its queue and a lock within the page is enough.
     */
    let denied = false;
    const chains = new Map<string, Promise<void>>();
    return async (name, task) => {
      if (!denied) {
        let started = false;
        try {
          return await locks.request(name, () => ((started = true), task()));
        } catch (error) {
          if (started || (error as Error | undefined)?.name !== 'SecurityError') throw error;
          denied = true;
        }
      }
      return chainLock(chains, name, task);
    };
  }
  const lease = once(async () => (await importLeaseLock()).leaseLock(options, chainLock));
  return async (name, task) => (await lease())(name, task);
}
