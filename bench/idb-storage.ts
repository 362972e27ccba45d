/**
 * A minimal IndexedDB `KeyValueStorage` on idb-keyval, for the tracker rows on IndexedDB (fake-indexeddb in
 * Node). Stand-in until the browser adapter's `createIdbStorage` (adapters/browser/storage.ts) is merged:
 * the bench should then measure that one.
 */
import 'fake-indexeddb/auto';
import { createStore, del, get, keys, set } from 'idb-keyval';
import type { KeyValueStorage } from '../core/index.js';

/** One idb-keyval store per call (its own database), so runs do not see each other's keys. */
export function createBenchIdbStorage(databaseName: string): KeyValueStorage {
  const store = createStore(databaseName, 'keyval');
  return {
    get: <T>(key: string) => get<T>(key, store),
    set: (key, value) => set(key, value, store),
    delete: (key) => del(key, store),
    // IndexedDB lists keys in order; only start-up and each flush list them, never an enqueue.
    keys: async (prefix = '') => (await keys<string>(store)).filter((key) => key.startsWith(prefix)),
  };
}
