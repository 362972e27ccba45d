/**
 * The browser's {@link KeyValueStorage}: IndexedDB through idb-keyval, in a database and object store of its own.
 * Where IndexedDB is missing or refuses to open (Safari and Firefox private modes of some versions, storage
 * blocked by the user or a sandboxed frame) it reports a {@link StorageUnavailableError} once and keeps the data
 * in memory for the life of the page: the game keeps working, only a reload forgets. A connection lost later
 * (closed, closing, `versionchange`, WebKit's lost server) is replaced and the operation retried (twice at most)
 * (./idb-connection.ts); only when that fails too does the call reject, for the tracker to report.
 * @see DESIGN section 4
 */
import { promisifyRequest, type UseStore } from 'idb-keyval';
import type { KeyValueStorage } from '../../core/platform.js';
import { reconnectingStore } from './idb-connection.js';

/** Options of {@link createIdbStorage}. */
export interface IdbStorageOptions {
  /**
   * IndexedDB database name. @defaultValue 'game-campaign'; the browser `createGameCampaign` uses the game's own,
   * `game-campaign.<CLIENT_KEY_ID>`, unless `tracker.storageKey` is set
   */
  dbName?: string;
  /** Object store name. Use a database of its own per store (idb-keyval creates the store with the database). @defaultValue 'kv' */
  storeName?: string;
  /** Hears a {@link StorageUnavailableError} when IndexedDB cannot be used. @defaultValue console.warn */
  onError?: (error: unknown) => void;
}

/** A {@link KeyValueStorage} with the atomic read-modify-write the cross-tab lease needs. */
export interface BrowserStorage extends KeyValueStorage {
  /**
   * Replaces the value of `key` by `updater(current)` in one IndexedDB read-write transaction (which other tabs'
   * transactions on the store cannot interleave with); `undefined` deletes the key. Resolves to the new value.
   */
  update<T>(key: string, updater: (current: T | undefined) => T | undefined): Promise<T | undefined>;
  /** Resolves to true when data persists in IndexedDB, false when it lives in memory only. */
  persistent(): Promise<boolean>;
}

/** IndexedDB cannot be used here; the SDK keeps its data in memory for this page (its `cause` says why). */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
}

type Backend = Omit<BrowserStorage, 'persistent'> & { persistent?: true };

/**
 * Creates the IndexedDB storage. The database is opened on first use; if that fails, every call is served from
 * memory from then on, and `onError` hears why, once.
 * @example
 * ```ts
 * const storage = createIdbStorage({ dbName: 'my-game-campaign', onError: (error) => showBanner(error.message) });
 * await storage.set('greeting', { hello: 'world' });
 * ```
 */
export function createIdbStorage(options: IdbStorageOptions = {}): BrowserStorage {
  const { dbName = 'game-campaign', storeName = 'kv', onError = (error: unknown) => console.warn(error) } = options;
  let backend: Promise<Backend> | undefined;
  const open = () =>
    (backend ??= (async () => {
      try {
        const store = reconnectingStore(dbName, storeName);
        const backend = idbBackend(store);
        await backend.get(''); // opens the database (and creates the store) or fails
        return backend;
      } catch (cause) {
        onError(new StorageUnavailableError(`IndexedDB is unavailable (${cause}): data kept in memory for this page only`, { cause }));
        return memoryBackend();
      }
    })());
  // Every call waits for the backend chosen on first use.
  const storage: Record<string, (...args: unknown[]) => Promise<unknown>> = { persistent: async () => (await open()).persistent === true };
  for (const name of ['get', 'set', 'delete', 'keys', 'update'] as const) storage[name] = async (...args) => ((await open())[name] as (...args: unknown[]) => unknown)(...args);
  return storage as unknown as BrowserStorage;
}

/**
 * The store's operations, each one transaction through a {@link UseStore} and idb-keyval's `promisifyRequest` (its
 * `get`/`set`/`del` would add their default-store fallback, which a custom store never uses).
 */
function idbBackend(store: UseStore): Backend {
  /**
   * One read-write transaction. A write whose request `change` returns (placed at once) commits it without
   * waiting for the page's event loop: a page being left (closed, reloaded, navigated, frozen) may never run it
   * again, and Chromium aborted such a transaction with the document, so the tab's exit left storage at the last
   * checkpoint (1 s stored of 3.6 s played) for a next visit to send if the exit request was lost. `commit()` is
   * Chromium 76+, Firefox 74+, Safari 15+; older engines commit as before. Not for `update`, which places its
   * write from the read's callback (a committing transaction takes no new request) and returns nothing.
   * @see https://w3c.github.io/IndexedDB/#dom-idbtransaction-commit
   */
  const write = (change: (objects: IDBObjectStore) => unknown) =>
    store('readwrite', (objects) => {
      if (change(objects)) objects.transaction.commit?.();
      return promisifyRequest(objects.transaction);
    });
  return {
    persistent: true,
    get: (key) => store('readonly', (objects) => promisifyRequest(objects.get(key))),
    set: (key, value) => write((objects) => objects.put(value, key)),
    delete: (key) => write((objects) => objects.delete(key)),
    // Every key in the range starts with the prefix: the queue's keys are read without the rest of the store.
    keys: (prefix = '') =>
      store('readonly', (objects) => promisifyRequest(objects.getAllKeys(prefix ? IDBKeyRange.bound(prefix, prefix + '\uffff') : undefined))).then((found) => found.map(String)),
    update: <T>(key: string, updater: (current: T | undefined) => T | undefined) => {
      let next: T | undefined;
      return write((objects) => {
        const read = objects.get(key);
        read.onsuccess = () => {
          next = updater(read.result as T | undefined);
          if (next === undefined) objects.delete(key);
          else objects.put(next, key);
        };
      }).then(() => next);
    },
  };
}

/** The fallback: JSON copies in a Map, so values behave as stored ones (a later change to an object does not leak in). */
function memoryBackend(): Backend {
  const entries = new Map<string, string>();
  // A stored text is never empty (JSON), so a missing key reads as undefined.
  const read = (key: string) => {
    const text = entries.get(key);
    return text && JSON.parse(text);
  };
  const write = <T>(key: string, value?: T) => {
    if (value === undefined) entries.delete(key);
    else entries.set(key, JSON.stringify(value));
    return value;
  };
  return {
    get: async (key) => read(key),
    set: async (key, value) => void write(key, value),
    delete: async (key) => void write(key),
    keys: async (prefix = '') => [...entries.keys()].filter((key) => key.startsWith(prefix)).sort(),
    update: async (key, updater) => write(key, updater(read(key))),
  };
}
