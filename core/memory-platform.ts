/**
 * An in-memory {@link Platform} for tests, samples and the emulator's simulated clients: a Map-backed store,
 * lifecycle and network switches, a lock shared by every platform on one store, and a crash switch.
 * It touches no runtime global: its clocks read `Date.now()` so `vi.useFakeTimers()` drives them.
 * @see DESIGN section 4
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { chainLock } from './chain-lock.js';
import type { FetchLike, KeyValueStorage, Lifecycle, NetworkStatus, Platform } from './platform.js';
import { pageExit } from './tracker/page-exit.js';

/** A {@link KeyValueStorage} held in memory; values are stored as JSON text, so reads return copies. */
export interface MemoryStorage extends KeyValueStorage {
  /** Every entry (or those under `prefix`), parsed, in key order: for assertions on exact storage contents. */
  snapshot(prefix?: string): Record<string, unknown>;
}

/**
 * `text`, joined into one piece in place. Engines keep a string built by concatenation (a queue key, and the text
 * `JSON.stringify` builds in parts) as a tree of its parts, a rope, until a character is read: V8 then flattens it,
 * and its collector drops the emptied tree (JavaScriptCore and SpiderMonkey resolve ropes the same way). 10,000 queued
 * sessions held 6.0 MB in ropes, 4.9 MB flat (`npm run bench`, tracker rows).
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

/**
 * Creates an empty in-memory store. Share one between platforms to simulate a restart on the same device.
 * Keys are listed in sorted order, as IndexedDB lists them.
 */
export function createMemoryStorage(): MemoryStorage {
  const entries = new Map<string, string>();
  const sortedKeys = (prefix = '') => [...entries.keys()].filter((key) => key.startsWith(prefix)).sort();
  return {
    async get<T>(key: string) {
      const text = entries.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as T);
    },
    async set(key, value) {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`memory storage: the value for "${key}" is not JSON-serialisable`);
      entries.set(flat(key), flat(text));
    },
    async delete(key) {
      entries.delete(key);
    },
    async keys(prefix) {
      return sortedKeys(prefix);
    },
    snapshot(prefix) {
      return Object.fromEntries(sortedKeys(prefix).map((key) => [key, JSON.parse(entries.get(key)!) as unknown]));
    },
  };
}

/** Options of {@link createMemoryPlatform}. */
export interface MemoryPlatformOptions {
  /** The store; pass the same one to two platforms to simulate a restart on one device. @defaultValue a new {@link createMemoryStorage} */
  storage?: KeyValueStorage;
  /** What `platform.fetch` calls while online. @defaultValue a fetch that fails as a connection error */
  fetch?: FetchLike;
  /** Whether the network starts online. @defaultValue true */
  online?: boolean;
  /**
   * Source of `crypto.randomBytes` (a number in [0, 1) per byte). assumed: the default is a PRNG seeded per
   * platform (a counter), so runs are reproducible and two platforms never repeat each other's bytes.
   * NOT secure: for tests only.
   */
  random?: () => number;
  /**
   * Whether `background()` may be the last event, as on a browser page (the lifecycle then has the tracker's
   * `pageExit`, as the browser's does): the tracker then ends and sends a session on `background()` and continues
   * it on `foreground()`. @defaultValue false
   */
  backgroundMayBeFinal?: boolean;
}

/** A {@link Platform} with the switches a test turns. */
export interface MemoryPlatform extends Platform {
  storage: KeyValueStorage;
  network: NetworkStatus;
  lock<T>(name: string, task: () => Promise<T>): Promise<T>;
  /** URLs passed to `openWebView`, in order. */
  readonly opened: string[];
  /** Closes the web view opened last, as the player or the page's close message would. */
  closeWebView(): void;
  /** True between `background()` and `foreground()`. */
  readonly inBackground: boolean;
  /** Moves only the wall clock (`now()`) by `offsetMs` from real time: the player changing the device clock. */
  setWallClock(offsetMs: number): void;
  /** Calls the `onBackground` listeners (once per change). */
  background(): void;
  /** Calls the `onForeground` listeners (once per change). */
  foreground(): void;
  /** Calls the `onUnload` listeners. */
  unload(): void;
  /** Goes on- or offline; `onChange` listeners hear each change. Offline, `fetch` fails as a connection error. */
  setOnline(online: boolean): void;
  /**
   * Simulates the process dying: from now on this platform's storage calls, fetches (also those in flight)
   * and lock requests reject, its listeners are forgotten, and the locks it held are released, as a
   * browser releases a dead tab's Web Locks. Other platforms on the same store carry on.
   */
  crash(): void;
}

/** Every platform's lock chains, per underlying store and lock name. */
const lockChains = new WeakMap<KeyValueStorage, Map<string, Promise<void>>>();
/** The store a platform's storage view wraps, so views of one store share locks. */
const underlyingStores = new WeakMap<KeyValueStorage, KeyValueStorage>();
let platformCount = 0;

/**
 * Creates an in-memory platform: `now()` is `Date.now()` plus the offset from `setWallClock`, `monotonic()`
 * is `Date.now()` (never going back), crypto is SHA-256 from @noble/hashes and seeded random bytes.
 * @example
 * ```ts
 * vi.useFakeTimers();
 * const storage = createMemoryStorage();
 * const platform = createMemoryPlatform({ storage, fetch: relay.fetch });
 * platform.background(); vi.advanceTimersByTime(30_000); platform.foreground();
 * ```
 */
export function createMemoryPlatform(options: MemoryPlatformOptions = {}): MemoryPlatform {
  const store = options.storage ? (underlyingStores.get(options.storage) ?? options.storage) : createMemoryStorage();
  const random = options.random ?? seededRandom(++platformCount);
  const listeners = { background: new Set<() => void>(), foreground: new Set<() => void>(), unload: new Set<() => void>(), network: new Set<(online: boolean) => void>() };
  let wallOffsetMs = 0;
  let lastMonotonic = -Infinity;
  let online = options.online ?? true;
  let inBackground = false;
  /** After `crash()`: what every call answers (one rejected promise, already observed, as a dead process answers nothing). */
  let crashed: Promise<never> | undefined;
  /**
   * The reject of every call in flight, so `crash()` can fail them. Each call removes its own entry once it
   * settles: racing every call against one never-settling crash promise instead left a reaction on that
   * promise per call (~300 bytes) for the platform's lifetime.
   */
  const inFlight = new Set<(error: Error) => void>();
  const alive = <T>(run: () => Promise<T>): Promise<T> => {
    if (crashed) return crashed;
    return new Promise<T>((resolve, reject) => {
      inFlight.add(reject);
      const settled = () => inFlight.delete(reject);
      try {
        run().then(
          (value) => (settled(), resolve(value)),
          (error: unknown) => (settled(), reject(error)),
        );
      } catch (error) {
        settled();
        reject(error);
      }
    });
  };
  const subscribe = <L>(set: Set<L>) => (listener: L) => {
    if (!crashed) set.add(listener);
    return () => void set.delete(listener);
  };

  const storage: KeyValueStorage = {
    get: (key) => alive(() => store.get(key)),
    set: (key, value) => alive(() => store.set(key, value)),
    delete: (key) => alive(() => store.delete(key)),
    keys: (prefix) => alive(() => store.keys(prefix)),
  };
  underlyingStores.set(storage, store);
  const opened: string[] = [];
  const openWebViews: Array<() => void> = [];
  const lifecycle: Lifecycle = {
    onBackground: subscribe(listeners.background),
    onForeground: subscribe(listeners.foreground),
    onUnload: subscribe(listeners.unload),
    isInBackground: () => inBackground,
    ...(options.backgroundMayBeFinal ? { pageExit } : {}),
  };
  const fetch: FetchLike = (input, init) =>
    alive(async () => {
      if (!online) throw new TypeError('Failed to fetch: the memory platform is offline');
      if (!options.fetch) throw new TypeError('Failed to fetch: the memory platform was given no fetch');
      return options.fetch(input, init);
    });

  return {
    storage,
    lifecycle,
    fetch,
    opened,
    get inBackground() {
      return inBackground;
    },
    crypto: {
      async randomBytes(n) {
        return Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
      },
      async sha256(data) {
        return sha256(data);
      },
    },
    async openWebView(url) {
      opened.push(url);
      let close!: () => void;
      const closed = new Promise<void>((resolve) => (close = resolve));
      openWebViews.push(close);
      return { closed, close };
    },
    closeWebView() {
      openWebViews.pop()?.();
    },
    network: { isOnline: () => online, onChange: subscribe(listeners.network) },
    lock(name, task) {
      let chains = lockChains.get(store);
      if (!chains) lockChains.set(store, (chains = new Map()));
      return chainLock(chains, name, () => alive(task));
    },
    now: () => Date.now() + wallOffsetMs,
    monotonic: () => (lastMonotonic = Math.max(lastMonotonic, Date.now())),
    setWallClock(offsetMs) {
      wallOffsetMs = offsetMs;
    },
    background() {
      if (inBackground || crashed) return;
      inBackground = true;
      for (const listener of [...listeners.background]) listener();
    },
    foreground() {
      if (!inBackground || crashed) return;
      inBackground = false;
      for (const listener of [...listeners.foreground]) listener();
    },
    unload() {
      if (!crashed) for (const listener of [...listeners.unload]) listener();
    },
    setOnline(next) {
      if (next === online || crashed) return;
      online = next;
      for (const listener of [...listeners.network]) listener(next);
    },
    crash() {
      if (crashed) return;
      const error = new Error('memory platform: the process crashed');
      crashed = Promise.reject(error);
      crashed.catch(() => undefined); // keeps it from counting as "unhandled" when a caller fires and forgets
      for (const set of Object.values(listeners)) set.clear();
      for (const reject of inFlight) reject(error);
      inFlight.clear();
    },
  };
}

/** mulberry32: a small, fast 32-bit PRNG. Deterministic and NOT secure: for tests only. */
export function seededRandom(seed: number): () => number {
  let state = (seed * 0x9e3779b9) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
