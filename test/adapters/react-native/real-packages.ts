/**
 * The real React Native packages' own JavaScript, loaded in a fresh module realm per "process start" (as an app
 * restart reloads its bundle), with what they import from React Native supplied here:
 * - @react-native-async-storage/async-storage 3.1.1: its jest mock (`lib/module/jest/AsyncStorageMock.js`) and
 *   its web build (`lib/module/index.js` + `createAsyncStorage.js`: named stores on IndexedDB through `idb`, the
 *   default export the legacy store on `window.localStorage`);
 * - 2.2.0 (installed as `async-storage-v2`): its jest mock (`jest/async-storage-mock.js`, CommonJS) and its web
 *   build (`lib/module/AsyncStorage.js` on `window.localStorage`);
 * - @react-native-community/netinfo 12.0.1: its jest mock (`jest/netinfo-mock.js`) and its own JS
 *   (`lib/module/index.js`, `internal/state.js`: the native path, with the native module supplied here).
 * ES modules are bundled by esbuild (the package code unchanged) into one CommonJS function evaluated with the
 * `require` and globals given: nothing touches this process's globals.
 */
import { createRequire } from 'node:module';
import { buildSync } from 'esbuild';

const require = createRequire(import.meta.url);
const bundles = new Map<string, string>();

/** `entry` (a package path) and what it imports, minus `external`, as CommonJS code; built once per run. */
function bundle(entry: string, external: string[] = []): string {
  const path = require.resolve(entry);
  let code = bundles.get(path);
  if (code === undefined) {
    const result = buildSync({ entryPoints: [path], bundle: true, write: false, format: 'cjs', platform: 'neutral', mainFields: ['module', 'main'], target: 'es2022', external, logLevel: 'silent' });
    code = result.outputFiles[0]!.text;
    bundles.set(path, code);
  }
  return code;
}

/** Evaluates CommonJS `code` in a new module scope; `globals` shadow the host's globals of those names. */
function evaluate<T>(code: string, modules: Record<string, unknown> = {}, globals: Record<string, unknown> = {}): T {
  const module = { exports: {} as T };
  const requireModule = (name: string) => {
    if (name in modules) return modules[name];
    return require(name);
  };
  const names = Object.keys(globals);
  new Function('require', 'module', 'exports', ...names, code)(requireModule, module, module.exports, ...names.map((name) => globals[name]));
  return module.exports;
}

/**
 * The least of jest the packages' mocks call at load (`jest.fn`, `mockReturnValue`, `mockResolvedValue`): a
 * function running its current implementation. Not jest: no call recording.
 */
export function minimalJest() {
  return {
    fn(implementation: (...args: any[]) => unknown = () => undefined) {
      let current = implementation;
      const mock = Object.assign((...args: unknown[]) => current(...args), {
        mockImplementation: (next: typeof current) => ((current = next), mock),
        mockReturnValue: (value: unknown) => ((current = () => value), mock),
        mockResolvedValue: (value: unknown) => ((current = () => Promise.resolve(value)), mock),
      });
      return mock;
    },
  };
}

/** A CommonJS jest mock file, evaluated afresh with {@link minimalJest} as its `jest` global. */
function jestMock<T>(file: string): T {
  return evaluate<T>(require('node:fs').readFileSync(require.resolve(file), 'utf8'), {}, { jest: minimalJest() });
}

/** The calls of an AsyncStorage store (both lines; 3.x stores whatever value it is given). */
export interface RealAsyncStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<unknown>;
  removeItem(key: string): Promise<unknown>;
  getAllKeys(): Promise<readonly string[]>;
}

/** The 3.x module as `import * as AsyncStorage` gives it. */
export interface AsyncStorageV3Module {
  default: RealAsyncStorage & { getMany(keys: string[]): Promise<Record<string, string | null>> };
  createAsyncStorage(name: string): RealAsyncStorage & { getMany(keys: string[]): Promise<Record<string, string | null>> };
  clearAllMockStorages?(): void;
}

/** 3.1.1's jest mock, a fresh copy (its named stores live in the module, so one copy is one device). */
export function asyncStorageV3JestMock(): AsyncStorageV3Module {
  return evaluate<AsyncStorageV3Module>(bundle('@react-native-async-storage/async-storage/jest'));
}

/**
 * fake-indexeddb 6 (an IndexedDB in memory), a private copy whose tasks run as microtasks: its scheduler takes
 * `globalThis.setImmediate` (`build/cjs/lib/scheduling.js`, its only use of `globalThis`), which this copy sees as
 * `queueMicrotask`. A database then progresses while a test awaits the app directly and while fake time is
 * advanced, like every other promise of the app. (async-storage issues each transaction's requests at once, so
 * the earlier auto-commit this allows changes nothing for it.)
 */
export function fakeIndexedDbOnMicrotasks(): typeof import('fake-indexeddb') {
  return evaluate(bundle('fake-indexeddb'), {}, { globalThis: { setImmediate: (task: () => void) => queueMicrotask(task) } });
}

/** 3.1.1's web build on `indexedDB` (fake-indexeddb's `IDBFactory`: the device's disk) and `window.localStorage`. */
export function asyncStorageV3Web(disk: { indexedDB: IDBFactory; localStorage: Storage }, idbGlobals: Record<string, unknown>): AsyncStorageV3Module {
  return evaluate<AsyncStorageV3Module>(bundle('@react-native-async-storage/async-storage'), {}, { ...idbGlobals, indexedDB: disk.indexedDB, window: { localStorage: disk.localStorage } });
}

/** 2.2.0's default export as its jest mock has it (`__INTERNAL_MOCK_STORAGE__` is the device's disk). */
export type AsyncStorageV2 = RealAsyncStorage & { multiGet(keys: readonly string[]): Promise<ReadonlyArray<[string, string | null]>>; __INTERNAL_MOCK_STORAGE__: Record<string, string> };

/** 2.2.0's jest mock, a fresh copy. */
export function asyncStorageV2JestMock(): AsyncStorageV2 {
  return jestMock<AsyncStorageV2>('async-storage-v2/jest/async-storage-mock.js');
}

/** 2.2.0's web build (`import * as`: `{ default, useAsyncStorage }`) on `window.localStorage`. */
export function asyncStorageV2Web(localStorage: Storage): { default: RealAsyncStorage } {
  return evaluate(bundle('async-storage-v2', ['react']), {}, { window: { localStorage } });
}

/** A NetInfo state as the JS layer hands it to listeners. */
export interface RealNetInfoState {
  type: string;
  isConnected: boolean | null;
  isInternetReachable: boolean | null | undefined;
}

/** NetInfo's default export. */
export interface RealNetInfo {
  addEventListener(listener: (state: RealNetInfoState) => void): () => void;
  fetch(): Promise<RealNetInfoState>;
}

/** NetInfo 12's jest mock: `addEventListener` returns an unsubscribe function and never calls the listener. */
export function netInfoJestMock(): RealNetInfo {
  return jestMock<RealNetInfo>('@react-native-community/netinfo/jest/netinfo-mock.js');
}

/**
 * The device's connectivity as NetInfo's native module (`RNCNetInfo`, `internal/privateTypes.ts`) reports it:
 * `getCurrentState()` and `netInfo.networkStatusDidChange` events. Android and iOS report `isInternetReachable`
 * themselves (`useNativeReachability`, on by default), so the JS reachability probe never runs.
 */
export function netInfoNativeModule() {
  let state = { type: 'wifi', isConnected: true, isInternetReachable: true as boolean, details: null };
  const listeners = new Set<(event: typeof state) => void>();
  return {
    getCurrentState: async () => state,
    configure() {},
    addListener() {},
    removeListeners() {},
    /** The OS reports a change: the native module emits `netInfo.networkStatusDidChange`. */
    set(online: boolean) {
      state = { ...state, type: online ? 'wifi' : 'none', isConnected: online, isInternetReachable: online };
      for (const listener of [...listeners]) listener(state);
    },
    /** What `NativeEventEmitter` subscribes to (react-native `Libraries/EventEmitter/NativeEventEmitter.js`). */
    listeners,
  };
}

/**
 * NetInfo 12's own JS, a fresh copy (its `State` singleton is per app start), over `native`. `react-native`
 * supplies what it imports: `Platform`, `NativeModules.RNCNetInfo` (`internal/nativeModule.ts`, no TurboModule
 * proxy) and a `NativeEventEmitter` that, like React Native's (`Libraries/EventEmitter/NativeEventEmitter.js`),
 * returns subscriptions with `remove()`.
 */
export function netInfoJs(native: ReturnType<typeof netInfoNativeModule>): RealNetInfo {
  class NativeEventEmitter {
    addListener(_type: string, listener: (event: unknown) => void) {
      native.listeners.add(listener);
      return { remove: () => void native.listeners.delete(listener) };
    }
  }
  const reactNative = { Platform: { OS: 'android' }, NativeModules: { RNCNetInfo: native }, NativeEventEmitter, TurboModuleRegistry: { get: () => null } };
  return evaluate<{ default: RealNetInfo }>(bundle('@react-native-community/netinfo', ['react', 'react-native']), { 'react-native': reactNative }).default;
}
