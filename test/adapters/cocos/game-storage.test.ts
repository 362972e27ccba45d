// Storage belongs to the game with the Cocos adapter's own createGameCampaign (a native build's `sys.localStorage`
// on a fake `cc`; web builds share it with every game of the origin): the shared `game-campaign:` keys of the release
// before moved into `game-campaign.<CLIENT_KEY_ID>:` once, a crash at any write of the move, two games on one
// device, an explicit storageKey (test/adapters/game-storage-contract.ts).
import { webcrypto } from 'node:crypto';
import { afterEach, vi } from 'vitest';
import { createGameCampaign } from '../../../adapters/cocos/index.js';
import { routedFetch } from '../devices.js';
import { createFakeCc, type DeviceTable } from '../fakes/fake-cc.js';
import { describeGameStorageContract, type GameStorageDevice } from '../game-storage-contract.js';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function cocosGameDevice(): GameStorageDevice {
  const table: DeviceTable = new Map();
  return {
    start(server, diesAfterWrites = Infinity) {
      let left = diesAfterWrites;
      let online = true;
      const cc = createFakeCc('native', table);
      cc.start();
      // The engine's store as the process sees it: every call throws once it died, writes count down to its death.
      const host = cc.sys.localStorage;
      const died = () => {
        left = -1;
        throw new Error('process died');
      };
      cc.sys.localStorage = {
        getItem: (key: string) => (left < 0 ? died() : host.getItem(key)),
        key: (index: number) => (left < 0 ? died() : host.key(index)),
        get length() {
          return left < 0 ? died() : host.length;
        },
        setItem: (key: string, value: string) => (left-- > 0 ? host.setItem(key, value) : died()),
        removeItem: (key: string) => (left-- > 0 ? host.removeItem(key) : died()),
      };
      const fetch = routedFetch(server, () => online && left >= 0, { dropSignal: true, dropKeepalive: true });
      return {
        game: (options) => createGameCampaign({ ...options, cc, fetch, getRandomValues: (array) => webcrypto.getRandomValues(array as Uint8Array) as never, onStorageError: () => undefined }),
        setOnline: (next) => void (online = next),
        kill: () => void (left = -1),
      };
    },
    keys: async (prefix) => [...table.keys()].filter((key) => key.startsWith(prefix)).sort(),
    get: async (key) => (table.has(key) ? JSON.parse(table.get(key)!) : undefined),
  };
}

describeGameStorageContract(cocosGameDevice);
