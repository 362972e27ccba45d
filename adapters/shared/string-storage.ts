/**
 * A {@link KeyValueStorage} over a synchronous string store (Web Storage, Cocos native's SQLite-backed
 * `localStorage`, `wx.*StorageSync`), checked by a probe write before first use. Values are JSON text.
 */
import type { KeyValueStorage } from '../../core/platform.js';
import { StorageUnavailableError } from './errors.js';

/**
 * The few synchronous calls every host string store answers, named as `Map`'s so a `Map` is one: the
 * in-memory fallback needs no wrapper.
 */
export interface StringStore {
  /** The stored text; `null`, `undefined` or `''` mean absent (WeChat reads a missing key as `''`). */
  get(key: string): string | null | undefined;
  set(key: string, value: string): unknown;
  delete(key: string): unknown;
  /** Every stored key. */
  keys(): Iterable<string>;
}

/** What {@link probedStorage} reports when it had to fall back to memory. */
export type StorageErrorListener = (error: StorageUnavailableError) => void;

/**
 * The probe's key. assumed: it never shows in `keys(prefix)`, since the core lists under longer prefixes
 * (`game-campaign:player:...`) and the probe is deleted as soon as it is read back.
 */
const PROBE_KEY = 'game-campaign:probe';

/**
 * Opens the store on first use (never at import: Cocos's `sys.localStorage` is an empty object until the
 * engine starts; `open` may be async, to import the store's code), writes a probe and reads it back. A store that
 * refuses only the write (full: WeChat's 10 MB, a quota) is kept, so its queue is still read and delivered. When
 * reading throws or does not read back (Cocos's warn-only stubs return `undefined`), everything goes to memory for this
 * run, `onError` hears why, and the first read (`get`/`keys`) rejects with the {@link StorageUnavailableError} so
 * the tracker reports it as an `error` event. assumed: failing that read loses nothing, since the memory store is
 * still empty then. `persistent` is undefined until first use, then whether the host store passed the probe
 * (`open` must not give a `Map`: that is the memory fallback).
 */
export function probedStorage(open: () => StringStore | Promise<StringStore>, onError: StorageErrorListener): KeyValueStorage & { readonly persistent: boolean | undefined } {
  let store: StringStore | undefined;
  /** The error the first read still has to throw. */
  let unreported: StorageUnavailableError | undefined;
  let opening: Promise<StringStore> | undefined;
  // Opened once, however many calls wait for it; calls then run in the order they were made.
  const ready = () =>
    (opening ??= (async () => {
      try {
        store = await open();
        const token = String(Math.random());
        let refused = false;
        try {
          store.set(PROBE_KEY, token);
        } catch {
          refused = true;
        }
        const read = store.get(PROBE_KEY);
        store.delete(PROBE_KEY);
        // A store that refuses the write but reads (a full one) is kept: what it holds is delivered, which makes room,
        // and the tracker holds in memory what it cannot write (docs/guides/tracker.md, "Storage that fails"). A read
        // of `undefined` is no store at all (Cocos's warn-only stubs), whether or not the write threw.
        if (refused ? (store.keys(), read === undefined) : read !== token) throw new Error(`probe read back ${read}`);
      } catch (cause) {
        store = new Map();
        onError((unreported = new StorageUnavailableError(`storage does not persist, kept in memory for this run: ${cause}`, { cause })));
      }
      return store;
    })());
  const read = async (): Promise<StringStore> => {
    const host = await ready();
    const error = unreported;
    unreported = undefined;
    if (error) throw error;
    return host;
  };
  return {
    get persistent() {
      return store && !(store instanceof Map);
    },
    async get<T>(key: string) {
      const text = (await read()).get(key);
      return text ? (JSON.parse(text) as T) : undefined;
    },
    async set(key, value) {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`storage: the value for "${key}" is not JSON-serialisable`);
      (await ready()).set(key, text);
    },
    async delete(key) {
      (await ready()).delete(key);
    },
    async keys(prefix = '') {
      return [...(await read()).keys()].filter((key) => key.startsWith(prefix)).sort();
    },
  };
}

/**
 * A Web Storage (`localStorage`, Cocos native's `sys.localStorage`) as a {@link StringStore}. With `readBack` (Cocos
 * native), each write and delete is read back and throws when it did not land: native's SQLite store drops a failed
 * write without a word (a full disk: cocos-engine native/cocos/storage/local-storage/LocalStorage.cpp prints "Error in
 * localStorage.setItem()", Android's CocosLocalStorage.java catches and prints), so the probe and the tracker hear it
 * as a browser's quota error: the store is kept and what it holds delivered, and the tracker holds what it cannot write.
 */
export function webStorageStore(storage: { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void; key(index: number): string | null; readonly length: number }, readBack?: boolean): StringStore {
  if (typeof storage?.getItem !== 'function') throw new Error('localStorage is not ready');
  const check = (key: string, expected: string | null, what: string) => {
    if (readBack && (storage.getItem(key) || null) !== expected) throw new Error(`storage: ${what} of "${key}" did not land (a full disk?)`);
  };
  return {
    get: (key) => storage.getItem(key),
    set: (key, value) => (storage.setItem(key, value), check(key, value, 'the write')),
    delete: (key) => (storage.removeItem(key), check(key, null, 'the delete')),
    // A key that vanished under us (another tab) reads as null: skipped.
    keys: () => Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter((key): key is string => key != null),
  };
}
