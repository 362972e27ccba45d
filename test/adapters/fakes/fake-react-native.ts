/**
 * Fakes of the React Native modules a game passes in:
 * - AsyncStorage 2.x (@react-native-async-storage/async-storage 2.x `AsyncStorage.ts`): Promise API with
 *   `multiGet/multiSet/multiRemove`, `getItem` -> null when missing, values must be strings (it warns and
 *   stores `String(value)` otherwise).
 * - AsyncStorage 3.x (3.1.1 `src/index.tsx`: `export { createAsyncStorage }` and `export default
 *   getLegacyStorage()`): the module has `createAsyncStorage(name)` and, as its default export, the legacy
 *   shared store, which has no `createAsyncStorage`; `getMany/setMany/removeMany`, no `multi*`, no callbacks;
 *   each name is its own database; values are stored as given, never checked (the jest mock keeps them in a
 *   Map, the web build in IndexedDB: `src/jest/AsyncStorageMock.ts`, `src/web-module/IndexedDBStorage.ts`).
 * - `AppState` (react-native Libraries/AppState/AppState.js): `currentState`, `addEventListener('change')`
 *   returns a subscription with `.remove()`; states active / background / inactive (iOS passes through inactive).
 * - NetInfo 12 (@react-native-community/netinfo 12.0.1 `src/index.ts` `addEventListener`,
 *   `src/internal/state.ts`): `addEventListener(listener)` returns the unsubscribe FUNCTION; the first call
 *   creates the state manager, which fetches the current state (constructor, line 36); a listener added before
 *   a state is known is called when each fetch lands and once more by `latest().then(handler)` (line 118); once
 *   a state is known, a new listener is called synchronously inside `addEventListener` (line 116);
 *   `isInternetReachable` may be null (unknown).
 * Hermes has no `crypto` global: tests remove it for React Native runs.
 */

/** One device's AsyncStorage databases (by name; `''` is the default instance's): survive a restart. */
export type AsyncStorageDisk = Map<string, Map<string, unknown>>;

function database(disk: AsyncStorageDisk, name: string): Map<string, unknown> {
  if (!disk.has(name)) disk.set(name, new Map());
  return disk.get(name)!;
}

/** AsyncStorage 2.x's default export over `disk`. */
export function createAsyncStorageV2(disk: AsyncStorageDisk = new Map()) {
  const db = database(disk, '');
  return {
    getItem: async (key: string) => (db.get(key) ?? null) as string | null,
    setItem: async (key: string, value: unknown) => void db.set(key, String(value)),
    removeItem: async (key: string) => void db.delete(key),
    getAllKeys: async () => [...db.keys()] as readonly string[],
    clear: async () => db.clear(),
    multiGet: async (keys: readonly string[]) => keys.map((key) => [key, (db.get(key) ?? null) as string | null] as const),
    multiSet: async (pairs: ReadonlyArray<readonly [string, string]>) => void pairs.forEach(([key, value]) => db.set(key, value)),
    multiRemove: async (keys: readonly string[]) => void keys.forEach((key) => db.delete(key)),
  };
}

/** One AsyncStorage 3.x store: values kept as given (3.1.1 checks nothing). */
function storeV3(db: Map<string, unknown>) {
  return {
    getItem: async (key: string) => (db.get(key) ?? null) as string | null,
    setItem: async (key: string, value: string) => void db.set(key, value),
    removeItem: async (key: string) => void db.delete(key),
    getAllKeys: async () => [...db.keys()],
    clear: async () => db.clear(),
    getMany: async (keys: string[]) => Object.fromEntries(keys.map((key) => [key, (db.get(key) ?? null) as string | null])),
    setMany: async (entries: Record<string, string>) => void Object.entries(entries).forEach(([key, value]) => db.set(key, value)),
    removeMany: async (keys: string[]) => void keys.forEach((key) => db.delete(key)),
  };
}

/** AsyncStorage 3.x's module (`import * as`): `createAsyncStorage(name)`, and the legacy store as `default`, over `disk`. */
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

/** NetInfo 12 with a switch: its `State` manager (`src/internal/state.ts`) over a native module answering at once. */
export function createFakeNetInfo() {
  let device = { isConnected: true as boolean | null, isInternetReachable: null as boolean | null };
  type State = typeof device;
  let latest: State | undefined;
  let started = false;
  const listeners = new Set<(s: State) => void>();
  const notify = (state: State) => listeners.forEach((listener) => listener(state));
  /** `_fetchCurrentState`: asks the native module (a promise), stores the answer and tells every listener. */
  const fetchCurrentState = async () => {
    const state = await Promise.resolve(device);
    latest = state;
    notify(state);
    return state;
  };
  return {
    addEventListener(listener: (s: State) => void) {
      if (!started) {
        started = true;
        void fetchCurrentState(); // the State constructor
      }
      listeners.add(listener);
      if (latest) listener(latest);
      else void fetchCurrentState().then(listener); // latest() with no state yet
      return () => void listeners.delete(listener);
    },
    fetch: async () => latest ?? fetchCurrentState(),
    /**
     * The native module reports a change (`netInfo.networkStatusDidChange`): a new reachability is told first
     * on the previous state (`_handleInternetReachabilityUpdate`), then the whole new state (`_handleNativeStateUpdate`).
     */
    set(next: Partial<State>) {
      const reachabilityChanged = next.isInternetReachable !== undefined && next.isInternetReachable !== device.isInternetReachable;
      device = { ...device, ...next };
      if (!started) return;
      if (latest && reachabilityChanged) notify((latest = { ...latest, isInternetReachable: device.isInternetReachable }));
      latest = device;
      notify(device);
    },
    listenerCount: () => listeners.size,
  };
}
