/**
 * AsyncStorage (2.x or 3.x, told apart by duck typing) as a {@link KeyValueStorage}. Values are JSON text.
 */
import type { KeyValueStorage } from '../../core/platform.js';
import type { AsyncStorageLike, AsyncStorageModule } from './types.js';

/** Which AsyncStorage API a store has. */
export type AsyncStorageShape = 'v2' | 'v3';

/** The store to use: the 3.x module's own named store (`createAsyncStorage(name)`), or the instance given. */
export function resolveAsyncStorage(module: AsyncStorageModule, name: string): { store: AsyncStorageLike; shape: AsyncStorageShape } {
  const candidate = 'createAsyncStorage' in module && typeof module.createAsyncStorage === 'function' ? module.createAsyncStorage(name) : module;
  const store = candidate as AsyncStorageLike;
  for (const method of ['getItem', 'setItem', 'removeItem', 'getAllKeys'] as const) {
    if (typeof store?.[method] !== 'function') throw new TypeError(`createReactNativePlatform: modules.AsyncStorage has no ${method}(); pass the default export of @react-native-async-storage/async-storage`);
  }
  return { store, shape: typeof store.getMany === 'function' && typeof store.multiGet !== 'function' ? 'v3' : 'v2' };
}

/** A {@link KeyValueStorage} over an AsyncStorage store. */
export function asyncStorageAdapter(store: AsyncStorageLike): KeyValueStorage {
  return {
    async get<T>(key: string) {
      const text = await store.getItem(key);
      return text === null || text === undefined ? undefined : (JSON.parse(text) as T);
    },
    async set(key, value) {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`storage: the value for "${key}" is not JSON-serialisable`);
      await store.setItem(key, text);
    },
    async delete(key) {
      await store.removeItem(key);
    },
    async keys(prefix = '') {
      return (await store.getAllKeys()).filter((key) => key.startsWith(prefix)).sort();
    },
  };
}
