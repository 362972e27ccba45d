/**
 * React Native devices on the real packages' own in-memory implementations (real-packages.ts), in a Hermes-like
 * realm: no `crypto` global (the game passes a random source), fetch without keepalive that fails offline.
 * AppState stays the fake (react-native's Flow source does not run outside Metro).
 */
import { webcrypto } from 'node:crypto';
import { Window } from 'happy-dom';
import { vi } from 'vitest';
import { createReactNativePlatform, type ReactNativeModules } from '../../../adapters/react-native/index.js';
import { routedFetch } from '../devices.js';
import { createFakeAppState } from '../fakes/fake-react-native.js';
import type { ContractDevice, ContractRun, ServerHandler } from '../platform-contract.js';
import * as real from './real-packages.js';

/** Which real AsyncStorage build holds the device's data. */
export type RealStorage = 'v2 jest mock' | 'v2 web' | 'v3 jest mock' | 'v3 web';
/** Which real NetInfo the app passes. */
export type RealNetInfoKind = 'jest mock' | 'own JS';

/** `window.localStorage` of a page: happy-dom's `Storage`. */
const newLocalStorage = () => new Window().localStorage as unknown as Storage;

/**
 * The device's storage: what survives a restart (a jest mock's in-memory stores, or the web build's IndexedDB
 * and localStorage), and `load()`, the app start's `modules.AsyncStorage` as the guide has it (`import * as`,
 * except 2.x's jest mock, which is the default export itself).
 */
export function realStorageDisk(kind: RealStorage): { load(): ReactNativeModules['AsyncStorage']; module(): real.AsyncStorageV3Module | undefined } {
  switch (kind) {
    case 'v2 jest mock': {
      const disk: Record<string, string> = {};
      return {
        load() {
          const mock = real.asyncStorageV2JestMock();
          mock.__INTERNAL_MOCK_STORAGE__ = disk;
          return mock;
        },
        module: () => undefined,
      };
    }
    case 'v2 web': {
      const localStorage = newLocalStorage();
      return { load: () => real.asyncStorageV2Web(localStorage), module: () => undefined };
    }
    case 'v3 jest mock': {
      // The mock's stores live in its module: one copy is one device's disk.
      const module = real.asyncStorageV3JestMock();
      return { load: () => module, module: () => module };
    }
    case 'v3 web': {
      const { IDBFactory, IDBCursor, IDBCursorWithValue, IDBDatabase, IDBIndex, IDBKeyRange, IDBObjectStore, IDBRequest, IDBTransaction } = real.fakeIndexedDbOnMicrotasks();
      const idbGlobals = { IDBCursor, IDBCursorWithValue, IDBDatabase, IDBIndex, IDBKeyRange, IDBObjectStore, IDBRequest, IDBTransaction };
      const disk = { indexedDB: new IDBFactory(), localStorage: newLocalStorage() };
      let latest: real.AsyncStorageV3Module | undefined;
      return { load: () => (latest = real.asyncStorageV3Web(disk, idbGlobals)), module: () => latest };
    }
  }
}

/** One app start on a device: the platform plus the switches of the contract. */
export interface RealRun extends ContractRun {
  modules: ReactNativeModules;
}

/** A device on the real packages. */
export interface RealDevice extends ContractDevice {
  start(server: ServerHandler): RealRun;
  disk: ReturnType<typeof realStorageDisk>;
}

/** A device with `storage` and `netInfo`. */
export function realReactNativeDevice(storage: RealStorage, netInfo: RealNetInfoKind): RealDevice {
  const disk = realStorageDisk(storage);
  const native = real.netInfoNativeModule();
  let online = true;
  return {
    disk,
    start(server) {
      vi.stubGlobal('crypto', undefined);
      vi.stubGlobal('fetch', routedFetch(server, () => online, { dropKeepalive: true }));
      const AppState = createFakeAppState();
      const modules: ReactNativeModules = {
        AsyncStorage: disk.load(),
        AppState,
        NetInfo: netInfo === 'jest mock' ? real.netInfoJestMock() : real.netInfoJs(native),
        getRandomValues: (array: Uint8Array) => webcrypto.getRandomValues(array),
      };
      return {
        modules,
        platform: createReactNativePlatform({ modules }),
        background() {
          AppState.set('inactive');
          AppState.set('background');
        },
        foreground: () => AppState.set('active'),
        setOnline(next) {
          online = next;
          native.set(next); // heard only through NetInfo's own JS; its jest mock never calls a listener
        },
      };
    },
  };
}
