/**
 * A {@link KeyValueStorage} over a synchronous string store (Web Storage, Cocos native's SQLite-backed
 * `localStorage`, `wx.*StorageSync`), checked by a probe write before first use. Values are JSON text.
 */
import type { KeyValueStorage } from '../../core/platform.js';
import { StorageUnavailableError } from './errors.js';

/** The few synchronous calls every host string store answers. */
export interface StringStore {
  /** The stored text; `null`, `undefined` or `''` mean absent (WeChat reads a missing key as `''`). */
  getItem(key: string): string | null | undefined;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  /** Every stored key. */
  keys(): string[];
}

/** What {@link probedStorage} reports when it had to fall back to memory. */
export type StorageErrorListener = (error: StorageUnavailableError) => void;

const PROBE_KEY = '__game_campaign_probe__';

/**
 * Opens the store on first use (never at import: Cocos's `sys.localStorage` is an empty object until the
 * engine starts), writes a probe and reads it back. When that throws or does not read back (Cocos's
 * warn-only stubs return `undefined`), everything goes to memory for this run, `onError` hears why, and the
 * first read (`get`/`keys`) rejects with the {@link StorageUnavailableError} so the tracker reports it as an
 * `error` event. assumed: failing that read loses nothing, since the memory store is still empty then.
 */
export function probedStorage(open: () => StringStore, onError: StorageErrorListener): KeyValueStorage & { readonly persistent: boolean | undefined } {
  let store: StringStore | undefined;
  let unavailable: StorageUnavailableError | undefined;
  let reported = false;
  const ready = (): StringStore => {
    if (store) return store;
    try {
      const host = open();
      const token = String(Math.random());
      host.setItem(PROBE_KEY, token);
      const read = host.getItem(PROBE_KEY);
      host.removeItem(PROBE_KEY);
      if (read !== token) throw new Error(`a probe write read back as ${JSON.stringify(read)}`);
      return (store = host);
    } catch (cause) {
      unavailable = new StorageUnavailableError(`storage does not persist; data is kept in memory for this run only (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
      onError(unavailable);
      return (store = memoryStringStore());
    }
  };
  const read = <T>(run: (host: StringStore) => T): T => {
    const host = ready();
    if (unavailable && !reported) {
      reported = true;
      throw unavailable;
    }
    return run(host);
  };
  return {
    get persistent() {
      return store === undefined ? undefined : unavailable === undefined;
    },
    async get<T>(key: string) {
      return read((host) => {
        const text = host.getItem(key);
        return text === null || text === undefined || text === '' ? undefined : (JSON.parse(text) as T);
      });
    },
    async set(key, value) {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`storage: the value for "${key}" is not JSON-serialisable`);
      ready().setItem(key, text);
    },
    async delete(key) {
      ready().removeItem(key);
    },
    async keys(prefix = '') {
      return read((host) => host.keys().filter((key) => key.startsWith(prefix) && key !== PROBE_KEY).sort());
    },
  };
}

/** A Map as a {@link StringStore}: the fallback when the host's store does not persist. */
export function memoryStringStore(): StringStore {
  const entries = new Map<string, string>();
  return {
    getItem: (key) => entries.get(key),
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
    keys: () => [...entries.keys()],
  };
}

/** A Web Storage (`localStorage`, Cocos native's `sys.localStorage`) as a {@link StringStore}. */
export function webStorageStore(storage: { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void; key(index: number): string | null; readonly length: number }): StringStore {
  if (typeof storage?.getItem !== 'function') throw new Error('localStorage is not ready (has the engine started?)');
  return {
    getItem: (key) => storage.getItem(key),
    setItem: (key, value) => storage.setItem(key, value),
    removeItem: (key) => storage.removeItem(key),
    keys() {
      const keys: string[] = [];
      for (let index = 0; index < storage.length; index++) {
        const key = storage.key(index);
        if (key !== null && key !== undefined) keys.push(key);
      }
      return keys;
    },
  };
}
