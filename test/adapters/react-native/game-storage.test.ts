// Storage belongs to the game with the React Native adapter's own createGameCampaign (AsyncStorage 2.x and 3.x
// fakes): the shared `game-campaign:` keys of the release before moved into `game-campaign.<CLIENT_KEY_ID>:` once,
// a crash at any write of the move, two games on one device (React Native for Web shares one origin), an explicit
// storageKey (test/adapters/game-storage-contract.ts); and an app that moves from AsyncStorage 2.x to 3.x.
import { webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGameCampaign } from '../../../adapters/react-native/index.js';
import type { GameCampaign } from '../../../core/game-campaign.js';
import { DEMO_ACTIVE_CAMPAIGN_ID } from '../../../emulator/index.js';
import { routedFetch } from '../devices.js';
import { createAsyncStorageV2, createAsyncStorageV3Module, createFakeAppState, type AsyncStorageDisk } from '../fakes/fake-react-native.js';
import { describeGameStorageContract, type GameStorageDevice } from '../game-storage-contract.js';
import { API_URL, RELAY_URL, startService, TOKEN, USER } from '../platform-contract.js';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

type Store = ReturnType<typeof createAsyncStorageV2> | ReturnType<ReturnType<typeof createAsyncStorageV3Module>['createAsyncStorage']>;

/**
 * A device with AsyncStorage `version`; the SDK's store is the default one (2.x) or `createAsyncStorage('game-campaign')`
 * (3.x). `disk` is the phone's: 3.x's legacy store (its default export) is 2.x's storage (3.1.1
 * `createAsyncStorage.native.ts`: "the legacy (v2) AsyncStorage implementation"; Android's `RKStorage` database).
 */
function reactNativeGameDevice(version: 'v2' | 'v3', disk: AsyncStorageDisk = new Map()): GameStorageDevice {
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
      const games: GameCampaign[] = [];
      return {
        game: (options) => {
          const gc = createGameCampaign({ ...options, modules, fetch });
          games.push(gc);
          return gc;
        },
        setOnline: (next) => void (online = next),
        // The app's JavaScript context dies with it, and with it the platform's in-context locks (a test runs every
        // process in one realm: the dead one's SDKs are disposed, on a store that no longer takes any write).
        kill: () => {
          left = -1;
          for (const gc of games) void gc.dispose().catch(() => undefined);
        },
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

describe('an app update from AsyncStorage 2.x to 3.x, on the same phone', () => {
  const FAKE_TIMERS: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] };
  const created: GameCampaign[] = [];
  afterEach(async () => {
    for (const gc of created.splice(0)) await gc.dispose().catch(() => undefined);
  });

  it("delivers once the session queued and the one running on 2.x, after the update passes the 3.x module (import * as); the app's own keys stay", async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const { emu, handler } = startService();
    const disk: AsyncStorageDisk = new Map();
    const options = { clientKey: emu.clientKey, environment: { baseUrl: API_URL }, relay: { url: RELAY_URL, headers: { authorization: TOKEN } }, userId: USER, tracker: { campaignId: DEMO_ACTIVE_CAMPAIGN_ID } };
    const recorded = () => Object.fromEntries((emu.state().sessions as Array<{ sessionId: string; durationSeconds: number }>).map((s) => [s.sessionId, s.durationSeconds]));

    // The app on AsyncStorage 2.x: one session queued offline, one running when the app is killed.
    const run1 = reactNativeGameDevice('v2', disk).start(handler);
    disk.get('')!.set('app:theme', 'dark');
    const gc1 = run1.game(options);
    created.push(gc1);
    await vi.advanceTimersByTimeAsync(100);
    run1.setOnline(false);
    const queued = gc1.tracker.start();
    await vi.advanceTimersByTimeAsync(4_000);
    await gc1.tracker.stop();
    const running = gc1.tracker.start();
    await vi.advanceTimersByTimeAsync(20_000);
    run1.kill();
    expect(recorded()).toEqual({});

    // The update: AsyncStorage 3.x, the module passed as the guide says.
    const run2 = reactNativeGameDevice('v3', disk).start(handler);
    const gc2 = run2.game(options);
    created.push(gc2);
    await vi.advanceTimersByTimeAsync(2_000);
    const flush = gc2.tracker.flush();
    await vi.advanceTimersByTimeAsync(1_000);
    await flush;
    expect(recorded()).toEqual({ [queued]: 4, [running]: 15 }); // the running one ended at its last checkpoint
    expect([...disk.get('')!.keys()]).toEqual(['app:theme']);
  });
});
