/**
 * The cross-tab lock (`Platform.lock`): the Web Locks API where the browser has it, and where it does not
 * (Safari before 15.4, pages on plain http other than localhost, where `navigator.locks` is missing) a lease
 * kept in the SDK's own IndexedDB store: taken and renewed in read-write transactions, which tabs cannot
 * interleave, and given up when it expires, so a tab that dies frees its locks within `leaseMs`.
 * @see DESIGN sections 4 and 5
 */
import { chainLock } from '../../core/chain-lock.js';
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

interface Lease {
  token: string;
  expiresAt: number;
}

/** Storage key prefix of the leases (apart from the tracker's `{storageKey}:` keys). */
export const LEASE_PREFIX = 'lease:';

/**
 * Creates the lock: `locks.request(name, task)` with Web Locks, else the lease.
 * assumed: with the lease, a tab whose timers the browser stops for longer than `leaseMs` while it holds a lock
 * (a frozen background tab) may lose it to another tab; a send it resumes afterwards can repeat one the other
 * tab made, which the service's de-duplication by sessionId answers SKIPPED (nothing is recorded twice).
 * Leases compare `Date.now()` of tabs on one device, so they share one clock.
 * @example
 * ```ts
 * const lock = createBrowserLock({ storage: createIdbStorage() });
 * await lock('game-campaign:flush', async () => sendQueue());
 * ```
 */
export function createBrowserLock(options: BrowserLockOptions): LockFunction {
  const { locks, storage, leaseMs = 10_000, pollMs = 500 } = options;
  if (locks) return (name, task) => locks.request(name, () => task());
  const local = new Map<string, Promise<void>>(); // one holder per name in this tab; the lease is between tabs
  return (name, task) =>
    chainLock(local, name, async () => {
      const key = LEASE_PREFIX + name;
      const token = String(Math.random()); // tells this holder's lease from another tab's
      const mine = () => ({ token, expiresAt: Date.now() + leaseMs });
      for (;;) {
        const lease = await storage.update<Lease>(key, (current) => (current && current.expiresAt > Date.now() ? current : mine()));
        if (lease?.token === token) break;
        // Until the lease expires, polling at most every pollMs (a negative delay is no delay).
        await new Promise((resolve) => setTimeout(resolve, Math.min(lease!.expiresAt - Date.now(), pollMs)));
      }
      const renewal = setInterval(() => void storage.update<Lease>(key, (current) => (current?.token === token ? mine() : current)).catch(() => undefined), leaseMs / 3);
      try {
        return await task();
      } finally {
        clearInterval(renewal);
        await storage.update<Lease>(key, (current) => (current?.token === token ? undefined : current)).catch(() => undefined);
      }
    });
}
