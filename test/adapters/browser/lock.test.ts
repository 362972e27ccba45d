// @vitest-environment happy-dom
// The cross-tab lock: Web Locks where present; else a lease in IndexedDB that two "tabs" (two connections to one
// database) contend for, that a live holder renews, and that a dead holder loses when it expires.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LEASE_PREFIX } from '../../../adapters/browser/lease-lock.js';
import { createBrowserLock } from '../../../adapters/browser/lock.js';
import { createIdbStorage } from '../../../adapters/browser/storage.js';

let dbCount = 0;
const twoTabs = (lease: { leaseMs?: number; pollMs?: number } = {}) => {
  const dbName = `lock-db-${++dbCount}`;
  return [0, 1].map(() => {
    const storage = createIdbStorage({ dbName });
    return { storage, lock: createBrowserLock({ storage, locks: undefined, ...lease }) };
  });
};
afterEach(() => void vi.useRealTimers());
// fake-indexeddb schedules with setImmediate, which stays real.
const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
/** Moves the fake clock by `ms` in 100 ms steps, letting IndexedDB's (real) tasks run after each. */
/** Takes `name` with `lock` for a task that runs until `release()`, which resolves once the lock is let go. */
async function holdLock(lock: (name: string, task: () => Promise<void>) => Promise<void>, name: string): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const holding = lock(name, () => new Promise<void>((resolve) => (release = resolve)));
  await tick(100);
  return { release: () => (release(), holding) };
}

async function tick(ms: number): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += 100) {
    await vi.advanceTimersByTimeAsync(Math.min(100, ms - elapsed));
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Tasks that record who ran, in order, and the most that ran at once (each takes 2 ms of real time). */
function exclusiveTasks<T>() {
  const seen = { active: 0, maxActive: 0, ran: [] as T[] };
  const task = (who: T) => async () => {
    seen.maxActive = Math.max(seen.maxActive, ++seen.active);
    await new Promise((resolve) => setTimeout(resolve, 2));
    seen.ran.push(who);
    seen.active--;
    return who;
  };
  return { seen, task };
}

describe('createBrowserLock with the Web Locks API', () => {
  it('runs the task inside navigator.locks.request under the same name and returns its result', async () => {
    const names: string[] = [];
    const locks = { request: async (name: string, task: () => Promise<unknown>) => (names.push(name), task()) } as unknown as LockManager;
    const lock = createBrowserLock({ locks, storage: createIdbStorage({ dbName: `lock-db-${++dbCount}` }) });
    expect(await lock('game-campaign:flush', async () => 42)).toBe(42);
    expect(names).toEqual(['game-campaign:flush']);
  });

  it("where Web Locks are denied (an opaque origin: a sandboxed frame without allow-same-origin), runs the tasks one at a time within the page instead of failing every lock; a task's own error still rejects", async () => {
    let requests = 0;
    // As Chromium answers in a sandboxed iframe without allow-same-origin.
    const denied = new DOMException("Failed to execute 'request' on 'LockManager': Access to the Locks API is denied in this context.", 'SecurityError');
    const locks = { request: async () => (requests++, Promise.reject(denied)) } as unknown as LockManager;
    const lock = createBrowserLock({ locks, storage: createIdbStorage({ dbName: `lock-db-${++dbCount}` }) });
    const { seen, task } = exclusiveTasks<number>();
    expect(await Promise.all([1, 2, 3].map((n) => lock('game-campaign:flush', task(n))))).toEqual([1, 2, 3]);
    expect(seen.ran).toEqual([1, 2, 3]);
    expect(seen.maxActive).toBe(1);
    expect(requests).toBeLessThanOrEqual(3); // asked until refused, then no more
    const own = new DOMException('the task itself', 'SecurityError');
    await expect(lock('game-campaign:flush', async () => Promise.reject(own))).rejects.toBe(own);
  });

  it('a SecurityError from the task itself, under a granted lock, rejects as it is (the lock is not given up)', async () => {
    const locks = { request: async (_name: string, task: () => Promise<unknown>) => task() } as unknown as LockManager;
    const lock = createBrowserLock({ locks, storage: createIdbStorage({ dbName: `lock-db-${++dbCount}` }) });
    const own = new DOMException('the task itself', 'SecurityError');
    await expect(lock('game-campaign:flush', async () => Promise.reject(own))).rejects.toBe(own);
    let granted = 0;
    const counting = { request: async (_name: string, task: () => Promise<unknown>) => (granted++, task()) } as unknown as LockManager;
    const again = createBrowserLock({ locks: counting, storage: createIdbStorage({ dbName: `lock-db-${++dbCount}` }) });
    await expect(again('n', async () => Promise.reject(own))).rejects.toBe(own);
    expect(await again('n', async () => 7)).toBe(7);
    expect(granted).toBe(2);
  });
});

describe('createBrowserLock with the storage lease (no navigator.locks)', () => {
  it('two tabs contending never run their tasks at the same time, and each gets its turn', async () => {
    const tabs = twoTabs({ pollMs: 5 });
    const { seen, task } = exclusiveTasks<string>();
    await Promise.all(Array.from({ length: 12 }, (_, i) => tabs[i % 2]!.lock('game-campaign:flush', task(`tab${i % 2}`))));
    expect(seen.maxActive).toBe(1);
    expect(seen.ran.filter((who) => who === 'tab0')).toHaveLength(6);
    expect(seen.ran.filter((who) => who === 'tab1')).toHaveLength(6);
    expect(await tabs[0]!.storage.keys(LEASE_PREFIX)).toEqual([]); // released
  });

  it('a lease left by a tab that died is taken once it expires, not before', async () => {
    fakeClock();
    const [tab] = twoTabs({ leaseMs: 10_000, pollMs: 500 });
    await tab!.storage.set(`${LEASE_PREFIX}game-campaign:alive:dead-tab`, { token: 'dead-tab', expiresAt: Date.now() + 10_000 });
    let entered = false;
    const done = tab!.lock('game-campaign:alive:dead-tab', async () => void (entered = true));
    await tick(9_000);
    expect(entered).toBe(false);
    await tick(1_500);
    await done;
    expect(entered).toBe(true);
  });

  it('a lease left by a tab that died, then the clock set back an hour: taken within the lease time, not an hour later (flushes waited on it meanwhile)', async () => {
    fakeClock();
    const [tab] = twoTabs({ leaseMs: 10_000, pollMs: 500 });
    await tab!.storage.set(`${LEASE_PREFIX}game-campaign:player:p1:flush`, { token: 'dead-tab', expiresAt: Date.now() + 10_000 });
    vi.setSystemTime(Date.now() - 3_600_000); // the player corrects a clock that ran an hour fast
    let entered = false;
    const done = tab!.lock('game-campaign:player:p1:flush', async () => void (entered = true));
    await tick(9_000);
    expect(entered).toBe(false);
    await tick(1_500);
    expect(entered).toBe(true);
    await done;
  });

  it('the clock set back while a live holder runs its task: the other tab still waits for the release (the holder renews the lease it cut)', async () => {
    fakeClock();
    const [a, b] = twoTabs({ leaseMs: 3_000, pollMs: 500 });
    const held = await holdLock(a!.lock, 'game-campaign:flush');
    vi.setSystemTime(Date.now() - 3_600_000);
    let bEntered = false;
    const waiting = b!.lock('game-campaign:flush', async () => void (bEntered = true));
    await tick(20_000);
    expect(bEntered).toBe(false);
    await held.release();
    await tick(600);
    await waiting;
    expect(bEntered).toBe(true);
  });

  it('a live holder renews its lease: the other tab waits for the release, however long the task takes', async () => {
    fakeClock();
    const [a, b] = twoTabs({ leaseMs: 3_000, pollMs: 500 });
    const held = await holdLock(a!.lock, 'game-campaign:flush');
    let bEntered = false;
    const waiting = b!.lock('game-campaign:flush', async () => void (bEntered = true));
    await tick(20_000); // almost 7 lease lifetimes
    expect(bEntered).toBe(false);
    await held.release();
    await tick(600);
    await waiting;
    expect(bEntered).toBe(true);
  });

  it('a storage that refuses the lease (a full origin: QuotaExceededError) runs the tasks one at a time in the tab instead of failing every lock; the lease is written once storage takes it', async () => {
    fakeClock();
    const storage = createIdbStorage({ dbName: `lock-db-${++dbCount}` });
    let full = true;
    const update = storage.update.bind(storage);
    // As Chromium refuses a write over the origin's quota (the transaction aborts with QuotaExceededError).
    storage.update = (async (key: string, updater: never) => (full ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) : update(key, updater))) as typeof storage.update;
    const lock = createBrowserLock({ storage, locks: undefined, leaseMs: 3_000 });
    const { seen, task } = exclusiveTasks<number>();
    const both = Promise.all([1, 2].map((n) => lock('game-campaign:flush', task(n))));
    await tick(500); // the tasks' own 2 ms waits are timers of the fake clock
    expect(await both).toEqual([1, 2]);
    expect(seen.maxActive).toBe(1);

    const held = await holdLock(lock, 'game-campaign:flush');
    expect(await storage.keys(LEASE_PREFIX)).toEqual([]);
    full = false; // space again: the holder's renewal writes its lease, so another tab waits for it
    await tick(1_100);
    expect(await storage.keys(LEASE_PREFIX)).toEqual([`${LEASE_PREFIX}game-campaign:flush`]);
    await held.release();
    expect(await storage.keys(LEASE_PREFIX)).toEqual([]);

    // A lease another tab stored (live, or unable to renew on the full origin too) still fails the lock, as before: its
    // running session is not recovered as a crashed one while it may be playing.
    await storage.set(`${LEASE_PREFIX}game-campaign:alive:other`, { token: 'other', expiresAt: Date.now() + 3_000 });
    full = true;
    let entered = false;
    const refused = lock('game-campaign:alive:other', async () => void (entered = true)).catch((error: unknown) => error);
    await tick(100);
    expect(await refused).toMatchObject({ name: 'QuotaExceededError' });
    expect(entered).toBe(false);
  });

  it('a holder whose lease another tab took and let go while the holder was frozen (a background tab, a page in the back/forward cache) writes it again: a later tab waits for it', async () => {
    fakeClock();
    const [a, b] = twoTabs({ leaseMs: 3_000, pollMs: 500 });
    const held = await holdLock(a!.lock, 'game-campaign:alive:a');
    // Frozen, a renewed nothing; its lease expired, and a starting tab took it and let it go (the tracker's recovery).
    await b!.storage.delete(`${LEASE_PREFIX}game-campaign:alive:a`);
    await tick(1_100); // a runs again: its renewal
    let bEntered = false;
    const waiting = b!.lock('game-campaign:alive:a', async () => void (bEntered = true));
    await tick(10_000);
    expect(bEntered).toBe(false); // before, a lived on without a lease: a later tab recovered its running session as crashed
    await held.release();
    await tick(600);
    expect(bEntered).toBe(true);
    await waiting;
  });

  it('a task that throws releases the lock and rejects with its error', async () => {
    const [a, b] = twoTabs({ pollMs: 5 });
    await expect(a!.lock('x', async () => Promise.reject(new Error('task failed')))).rejects.toThrow('task failed');
    expect(await b!.lock('x', async () => 'next')).toBe('next');
  });
});
