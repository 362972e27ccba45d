/**
 * The storage lease of the cross-tab lock (./lock.ts), for browsers without the Web Locks API (Safari before
 * 15.4, pages on plain http other than localhost): a lease kept in the SDK's own IndexedDB store, taken and
 * renewed in read-write transactions, which tabs cannot interleave, and given up when it expires, so a tab that
 * dies frees its locks within `leaseMs`. ./lock.ts imports this module lazily, only where `navigator.locks` is
 * missing; it imports nothing the entry does (the caller passes `chainLock`), so a game's bundler splits it off
 * alone instead of into a chunk shared with the entry.
 * @see DESIGN sections 4 and 5
 */
import type { chainLock as ChainLock } from '../../core/chain-lock.js';
import type { BrowserLockOptions, LockFunction } from './lock.js';

interface Lease {
  token: string;
  expiresAt: number;
}

/** Storage key prefix of the leases (apart from the tracker's `{storageKey}:` keys). */
export const LEASE_PREFIX = 'lease:';

/**
 * The lease lock over `options.storage`, one holder per name in this tab through `chainLock`.
 * assumed: a tab whose timers the browser stops for longer than `leaseMs` while it holds a lock (a frozen
 * background tab) may lose it to another tab; a send it resumes afterwards can repeat one the other tab made,
 * which the service's de-duplication by sessionId answers SKIPPED (nothing is recorded twice). Leases compare
 * `Date.now()` of tabs on one device, so they share one clock; a clock set back leaves a waiting tab at most `leaseMs`
 * behind a lease that a tab that died wrote before.
 */
export function leaseLock(options: BrowserLockOptions, chainLock: typeof ChainLock): LockFunction {
  const { storage, leaseMs = 10_000, pollMs = 500 } = options;
  const local = new Map<string, Promise<void>>(); // one holder per name in this tab; the lease is between tabs
  return (name, task) =>
    chainLock(local, name, async () => {
      const key = LEASE_PREFIX + name;
      const token = String(Math.random()); // tells this holder's lease from another tab's
      const mine = () => ({ token, expiresAt: Date.now() + leaseMs });
      for (;;) {
        // A lease no holder can have written (expiring more than leaseMs from now: the clock was set back after a tab that
        // died wrote it) is cut to leaseMs: else every tab waited for the clock to get back there, with no flush meanwhile.
        // A live holder renews it within leaseMs / 3 and keeps it.
        const lease = await storage
          .update<Lease>(key, (current) => {
            const now = Date.now();
            return !current || current.expiresAt <= now ? mine() : { ...current, expiresAt: Math.min(current.expiresAt, now + leaseMs) };
          })
          // Storage refuses the lease (a full origin: QuotaExceededError): then it refuses the queue's writes too, whose
          // sessions this page holds in memory, where no other tab sees them. Before, every lock failed, and nothing was
          // sent while the page ran (only its exit sent what it held). Where no lease is stored, the task runs, one at a
          // time in this tab, and the renewal writes the lease once storage takes it. assumed: another tab sending the
          // same stored sessions meanwhile is answered SKIPPED (recorded once), as after a frozen tab's lease expired.
          // A lease stored (another tab's, live or unable to renew on the full origin too) still fails the lock: that
          // tab's running session is not recovered as a crashed one while it may be playing.
          .catch(async (error: unknown) => {
            if (await storage.get(key)) throw error;
            return mine();
          });
        if (lease?.token === token) break;
        // Until the lease expires, polling at most every pollMs (a negative delay is no delay).
        await new Promise((resolve) => setTimeout(resolve, Math.min(lease!.expiresAt - Date.now(), pollMs)));
      }
      // Renewed while held, and written when missing (one storage refused, or cleared under the page).
      const renewal = setInterval(() => void storage.update<Lease>(key, (current) => (!current || current.token === token ? mine() : current)).catch(() => undefined), leaseMs / 3);
      try {
        return await task();
      } finally {
        clearInterval(renewal);
        await storage.update<Lease>(key, (current) => (current?.token === token ? undefined : current)).catch(() => undefined);
      }
    });
}
