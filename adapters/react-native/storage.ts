/**
 * AsyncStorage (1.x and 2.x alike, or 3.x, told apart by duck typing) as a {@link KeyValueStorage}. Values are JSON text.
 */
import type { KeyValueStorage } from '../../core/platform.js';
import { withDeadline } from '../../core/with-deadline.js';
import { moveLegacyKeys } from './legacy-keys.js';
import type { AsyncStorageLike, AsyncStorageModule } from './types.js';

/** Which AsyncStorage API a store has. */
export type AsyncStorageShape = 'v2' | 'v3';

const isStore = (value: unknown): value is AsyncStorageLike => typeof (value as AsyncStorageLike | undefined)?.getItem === 'function';

/**
 * How long an AsyncStorage call may take before the SDK takes it as failed. A call whose Promise never settles
 * (an Android native queue stuck behind another call, a native module that never answers) would otherwise hold
 * `stop()`, `flush()` and `dispose()` for ever; failed, it is a storage error like a full disk: reported (`error`,
 * kind `storage`) and the session kept in memory and sent. assumed: 10 s, far above a slow phone's write.
 */
export const ASYNC_STORAGE_TIMEOUT_MS = 10_000;

/**
 * The largest value written, in UTF-8 bytes. AsyncStorage on Android reads no entry over its CursorWindow, about 2 MB
 * (its docs, "Known storage limits"; async-storage issue #10: "Couldn't read row 0, col 0 from CursorWindow"): written,
 * a session with such metadata would stay queued, unread, for ever. Refused, it is held in memory and sent like one a
 * full disk refused, and dropped as too large (over the service's 1 MiB, so nothing deliverable is refused).
 * assumed: 2,000,000 leaves the 2 MiB window room for the key and the row.
 */
const MAX_VALUE_BYTES = 2e6;

/** The AsyncStorage calls the SDK makes. */
const CALLS = ['getItem', 'setItem', 'removeItem', 'getAllKeys'] as const;

/** `store` with each call failing after {@link ASYNC_STORAGE_TIMEOUT_MS} (the call itself may still finish later). */
function timed(store: AsyncStorageLike): AsyncStorageLike {
  const call =
    (method: 'getItem' | 'setItem' | 'removeItem' | 'getAllKeys') =>
    (key?: string, value?: string) =>
      withDeadline((store[method] as (key?: string, value?: string) => Promise<unknown>)(key, value), ASYNC_STORAGE_TIMEOUT_MS, () =>
        Promise.reject(new Error(`AsyncStorage.${method} did not answer within 10 s`)),
      );
  return Object.fromEntries(CALLS.map((method) => [method, call(method)])) as unknown as AsyncStorageLike;
}

/**
 * The SDK's storage in `module`, and the API it found. The store:
 * - the 3.x module (`import * as AsyncStorage`): the SDK's own store `createAsyncStorage(name)`, never the
 *   app's legacy shared store (3.1.1 `src/index.tsx`: `createAsyncStorage` is a named export, the default
 *   export is `getLegacyStorage()`, 2.x's storage); keys under one of `legacyKeys()` that the SDK wrote into that
 *   legacy store (0.1.0 on 3.x, whose guide passed the default export; any release on 2.x) are moved into the
 *   SDK's store before its first use (every call waits for that move, run once);
 * - a store (2.x's default export, or a store the game made): that store;
 * - 2.x's module (`import * as`, Metro's interop namespace): its default export.
 * A value that is not text (3.x stores whatever it is given) is returned as it is.
 * @throws TypeError when `module` is missing or none of these
 */
export function asyncStorage(module: AsyncStorageModule | undefined, name: string, legacyKeys: () => readonly string[]): { storageShape: AsyncStorageShape; storage: KeyValueStorage } {
  const candidate = module as (Partial<{ createAsyncStorage(name: string): AsyncStorageLike; default: unknown }> & Partial<AsyncStorageLike>) | undefined;
  let store: unknown = candidate;
  let legacy: AsyncStorageLike | undefined;
  if (typeof candidate?.createAsyncStorage === 'function') {
    store = candidate.createAsyncStorage(name);
    if (isStore(candidate.default)) legacy = candidate.default;
  } else if (!isStore(candidate) && isStore(candidate?.default)) {
    store = candidate.default;
  }
  for (const method of CALLS) {
    if (typeof (store as Partial<AsyncStorageLike> | undefined)?.[method] !== 'function') {
      throw new TypeError(`createReactNativePlatform: modules.AsyncStorage has no ${method}(); pass @react-native-async-storage/async-storage (import * as AsyncStorage)`);
    }
  }
  const given = store as AsyncStorageLike;
  const found = timed(given);
  let prepared: Promise<void> | undefined;
  // One store for both on visionOS (3.1.1 falls back to the legacy store there): nothing to move.
  const ready = () => (prepared ??= moveLegacyKeys(legacy === given ? undefined : legacy && timed(legacy), found, legacyKeys));
  return {
    storageShape: typeof given.getMany === 'function' && typeof given.multiGet !== 'function' ? 'v3' : 'v2',
    storage: {
      // `.then` where nothing is checked first: an app's Babel lowers an async function to a generator in a wrapper.
      get: <T>(key: string) =>
        ready()
          .then(() => found.getItem(key))
          .then((stored: unknown) => (stored === null || stored === undefined ? undefined : ((typeof stored === 'string' ? JSON.parse(stored) : stored) as T))),
      async set(key, value) {
        const text = JSON.stringify(value);
        // Each character past ASCII counted as 3 bytes: at most 1.5 times its UTF-8 bytes, so what is refused is over 1.3 MB.
        if (text === undefined || text.replace(/[^\0-\x7f]/g, '...').length > MAX_VALUE_BYTES) {
          throw new TypeError(`storage: the value for "${key}" is not JSON-serialisable or over 2 MB`);
        }
        await ready();
        await found.setItem(key, text);
      },
      delete: (key) => ready().then(() => found.removeItem(key) as Promise<void>),
      keys: (prefix = '') =>
        ready()
          .then(() => found.getAllKeys())
          .then((keys) => keys.filter((key) => key.startsWith(prefix)).sort()),
    },
  };
}
