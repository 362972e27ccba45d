// Storage belongs to the game with the React Native adapter's own createGameCampaign (AsyncStorage 2.x and 3.x
// fakes): the shared `game-campaign:` keys of the release before moved into `game-campaign.<CLIENT_KEY_ID>:` once,
// a crash at any write of the move, two games on one device (React Native for Web shares one origin), an explicit
// storageKey (test/adapters/game-storage-contract.ts).
import { webcrypto } from 'node:crypto';
import { afterEach, describe, vi } from 'vitest';
import { createGameCampaign } from '../../../adapters/react-native/index.js';
import { routedFetch } from '../devices.js';
import { createAsyncStorageV2, createAsyncStorageV3Module, createFakeAppState, type AsyncStorageDisk } from '../fakes/fake-react-native.js';
import { describeGameStorageContract, type GameStorageDevice } from '../game-storage-contract.js';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

type Store = ReturnType<typeof createAsyncStorageV2> | ReturnType<ReturnType<typeof createAsyncStorageV3Module>['createAsyncStorage']>;

/** A device with AsyncStorage `version`; the SDK's store is the default one (2.x) or `createAsyncStorage('game-campaign')` (3.x). */
function reactNativeGameDevice(version: 'v2' | 'v3'): GameStorageDevice {
  const disk: AsyncStorageDisk = new Map();
  const table = () => disk.get(version === 'v2' ? '' : 'game-campaign') ?? new Map<string, unknown>();
  return {
    start(server, diesAfterWrites = Infinity) {
      let left = diesAfterWrites;
      let online = true;
      const dead = () => Promise.reject(new Error('process died'));
      // The store as the process sees it: every call fails once it died, writes count down to its death.
      const mortal = <S extends Store>(store: S): S => ({
        ...store,
        getItem: (key: string) => (left < 0 ? dead() : store.getItem(key)),
        getAllKeys: () => (left < 0 ? dead() : store.getAllKeys()),
        setItem: (key: string, value: string) => (left-- > 0 ? store.setItem(key, value) : ((left = -1), dead())),
        removeItem: (key: string) => (left-- > 0 ? store.removeItem(key) : ((left = -1), dead())),
      });
      const v3 = createAsyncStorageV3Module(disk);
      const AsyncStorage = version === 'v2' ? mortal(createAsyncStorageV2(disk)) : { default: mortal(v3.default), createAsyncStorage: (name: string) => mortal(v3.createAsyncStorage(name)) };
      const modules = { AsyncStorage, AppState: createFakeAppState(), getRandomValues: (array: Uint8Array) => webcrypto.getRandomValues(array) };
      const fetch = routedFetch(server, () => online && left >= 0, { dropKeepalive: true });
      return {
        game: (options) => createGameCampaign({ ...options, modules, fetch }),
        setOnline: (next) => void (online = next),
        kill: () => void (left = -1),
      };
    },
    keys: async (prefix) => [...table().keys()].filter((key) => key.startsWith(prefix)).sort(),
    get: async (key) => {
      const text = table().get(key);
      return typeof text === 'string' ? JSON.parse(text) : text;
    },
  };
}

describe('AsyncStorage 2.x', () => describeGameStorageContract(() => reactNativeGameDevice('v2')));
describe('AsyncStorage 3.x', () => describeGameStorageContract(() => reactNativeGameDevice('v3')));
