/**
 * Fakes of the React Native modules a game passes in:
 * - AsyncStorage 2.x (@react-native-async-storage/async-storage 2.x `AsyncStorage.ts`): Promise API with
 *   `multiGet/multiSet/multiRemove`, `getItem` -> null when missing, values must be strings (it warns and
 *   stores `String(value)` otherwise).
 * - AsyncStorage 3.x (3.1.1 `createAsyncStorage(name)` + default instance): `getMany/setMany/removeMany`,
 *   no `multi*`, no callbacks; each name is its own database; a non-string value is rejected.
 * - `AppState` (react-native Libraries/AppState/AppState.js): `currentState`, `addEventListener('change')`
 *   returns a subscription with `.remove()`; states active / background / inactive (iOS passes through inactive).
 * - NetInfo 12 (@react-native-community/netinfo src/index.ts): `addEventListener(listener)` returns the
 *   unsubscribe FUNCTION and calls the listener with the current state soon after subscribing;
 *   `isInternetReachable` may be null (unknown).
 * Hermes has no `crypto` global: tests remove it for React Native runs.
 */

/** One device's AsyncStorage databases (by name; `''` is the default instance's): survive a restart. */
export type AsyncStorageDisk = Map<string, Map<string, string>>;

function database(disk: AsyncStorageDisk, name: string): Map<string, string> {
  if (!disk.has(name)) disk.set(name, new Map());
  return disk.get(name)!;
}

/** AsyncStorage 2.x's default export over `disk`. */
export function createAsyncStorageV2(disk: AsyncStorageDisk = new Map()) {
  const db = database(disk, '');
  return {
    getItem: async (key: string) => db.get(key) ?? null,
    setItem: async (key: string, value: unknown) => void db.set(key, String(value)),
    removeItem: async (key: string) => void db.delete(key),
    getAllKeys: async () => [...db.keys()] as readonly string[],
    clear: async () => db.clear(),
    multiGet: async (keys: readonly string[]) => keys.map((key) => [key, db.get(key) ?? null] as const),
    multiSet: async (pairs: ReadonlyArray<readonly [string, string]>) => void pairs.forEach(([key, value]) => db.set(key, value)),
    multiRemove: async (keys: readonly string[]) => void keys.forEach((key) => db.delete(key)),
  };
}

/** One AsyncStorage 3.x store. */
function storeV3(db: Map<string, string>) {
  const checkValue = (key: string, value: unknown) => {
    if (typeof value !== 'string') throw new TypeError(`[AsyncStorage] The value for key "${key}" is not a string.`);
  };
  return {
    getItem: async (key: string) => db.get(key) ?? null,
    setItem: async (key: string, value: string) => {
      checkValue(key, value);
      db.set(key, value);
    },
    removeItem: async (key: string) => void db.delete(key),
    getAllKeys: async () => [...db.keys()],
    clear: async () => db.clear(),
    getMany: async (keys: string[]) => Object.fromEntries(keys.map((key) => [key, db.get(key) ?? null])),
    setMany: async (entries: Record<string, string>) => void Object.entries(entries).forEach(([key, value]) => (checkValue(key, value), db.set(key, value))),
    removeMany: async (keys: string[]) => void keys.forEach((key) => db.delete(key)),
  };
}

/** AsyncStorage 3.x's module: `createAsyncStorage(name)` and the default instance, over `disk`. */
export function createAsyncStorageV3Module(disk: AsyncStorageDisk = new Map()) {
  return { default: storeV3(database(disk, '')), createAsyncStorage: (name: string) => storeV3(database(disk, name)) };
}

/** `AppState` with a switch. */
export function createFakeAppState(initial: 'active' | 'background' = 'active') {
  const listeners = new Set<(state: string) => void>();
  const appState = {
    currentState: initial as string,
    addEventListener(type: 'change', listener: (state: string) => void) {
      if (type !== 'change') throw new Error(`unsupported AppState event ${type}`);
      listeners.add(listener);
      return { remove: () => void listeners.delete(listener) };
    },
    /** Moves to `state` and tells the listeners, as the native module does. */
    set(state: 'active' | 'background' | 'inactive') {
      appState.currentState = state;
      for (const listener of [...listeners]) listener(state);
    },
    listenerCount: () => listeners.size,
  };
  return appState;
}

/** NetInfo 12 with a switch. */
export function createFakeNetInfo() {
  let state = { isConnected: true as boolean | null, isInternetReachable: null as boolean | null };
  const listeners = new Set<(s: typeof state) => void>();
  return {
    addEventListener(listener: (s: typeof state) => void) {
      listeners.add(listener);
      void Promise.resolve().then(() => listeners.has(listener) && listener(state));
      return () => void listeners.delete(listener);
    },
    fetch: async () => state,
    set(next: Partial<typeof state>) {
      state = { ...state, ...next };
      for (const listener of [...listeners]) listener(state);
    },
    listenerCount: () => listeners.size,
  };
}
