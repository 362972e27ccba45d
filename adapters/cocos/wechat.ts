/**
 * What only a WeChat mini-game runs: its storage (`wx.*StorageSync`: 10 MB per game, 1 MB per key, a write can
 * throw, a missing key reads as `''`), its network events and its random bytes (and the refusal of a build with
 * no random source at all). ./platform.ts imports this module when one of them is first used: in a mini-game the
 * chunk is part of the game's package (nothing to download), and a web or native build loads it only to refuse
 * random bytes it cannot make.
 * Nothing here may import a module the entry reaches too (../shared/errors.ts: the error class is passed in),
 * or esbuild would split that module into a chunk of its own, one more file every game loads at start.
 */
import type { CryptoUnavailableError } from '../shared/errors.js';
import type { StringStore } from '../shared/string-storage.js';
import type { CocosRuntime, WechatApi } from './types.js';

/**
 * WeChat's synchronous storage. Values are our JSON text; a value stored by other code is read as its JSON.
 * A missing key (`''`) and a `null` pass through as they are: the storage reads both as absent.
 */
export function wechatStore(wx: WechatApi): StringStore {
  return {
    get(key) {
      const value: unknown = wx.getStorageSync(key);
      return value == null || typeof value === 'string' ? (value as string | null | undefined) : JSON.stringify(value);
    },
    set: (key, value) => wx.setStorageSync(key, value),
    delete: (key) => wx.removeStorageSync(key),
    keys: () => wx.getStorageInfoSync().keys,
  };
}

/** A `wx.onNetworkStatusChange` event: `isConnected` is missing on an old Douyin `tt` (its 2020 docs give `networkType` only). */
type Change = { isConnected?: boolean; networkType: string };

/**
 * The one `wx.onNetworkStatusChange` listener of each `wx` and the watches it serves. One per `wx`, not one per
 * watch: a base library before 2.9.3 has no `wx.offNetworkStatusChange`, so every listener ever given stays for
 * the run, and each SDK created again (a scene reloaded) or read with nobody listening would add one more.
 */
const hubs = new WeakMap<WechatApi, { watchers: Set<(change: Change) => void>; listener: (change: Change) => void }>();

/**
 * WeChat's network state for ../shared/watched-network.ts: `wx.getNetworkType` answers what it is now and the
 * `wx.onNetworkStatusChange` listener of this `wx` (registered with the first watch) follows it; when the last
 * watch ends, `wx.offNetworkStatusChange` removes that listener (base library 2.9.3+; the same function object:
 * WeChat removes only the listener it is given), and where there is none it stays, serving the next watch.
 * Both answer in callbacks, so `getNetworkType`'s answer may come after a change it predates (offline at launch,
 * then the network back): it counts only while no change has been heard, and nothing counts once unwatched (a late
 * answer would set the state of a later watch, or of nobody's). A change without `isConnected` is read from
 * `networkType`, as `getNetworkType`'s answer is.
 */
export function watchWechatNetwork(wx: WechatApi, update: (online: boolean) => void): () => void {
  /** 0: waiting for `getNetworkType`; 1: a change heard (newer than its answer); 2: unwatched. */
  let state = 0;
  let hub = hubs.get(wx);
  if (!hub) {
    const watchers = new Set<(change: Change) => void>();
    hubs.set(wx, (hub = { watchers, listener: (change) => watchers.forEach((watcher) => watcher(change)) }));
    wx.onNetworkStatusChange(hub.listener);
  }
  const { watchers, listener } = hub;
  const watcher = ({ isConnected, networkType }: Change) => ((state = 1), update(isConnected ?? networkType !== 'none'));
  watchers.add(watcher);
  wx.getNetworkType({ success: ({ networkType }) => state || update(networkType !== 'none') });
  return () => {
    state = 2;
    if (watchers.delete(watcher) && !watchers.size && wx.offNetworkStatusChange) {
      wx.offNetworkStatusChange(listener);
      hubs.delete(wx);
    }
  };
}

/** A mini-game's asynchronous random source: WeChat's crypto manager, `wx.getRandomValues` or `tt.getRandomValues`. */
type RandomApi = { getRandomValues(options: { length: number; success?(result: { randomValues: ArrayBuffer }): void; fail?(error: { errMsg?: string }): void }): void };

/**
 * `n` secure random bytes from the mini-game's own source, each answering asynchronously with `randomValues` (as
 * many bytes as `length` asked): WeChat's crypto manager (`wx.getUserCryptoManager`, base library 2.17.3+), else a
 * `getRandomValues` on `wx` (WeChat's `wx.getRandomValues`, 2.15.0+; Douyin's `tt` passed as `wx`) or on the global
 * `tt` (Douyin given no `wx`: tt.getRandomValues, base library 2.87.0, developer.open-douyin.com .../api/device/crypto/
 * tt-get-random-valus). Before, Douyin, which has no crypto manager, reported a 'crypto' error. Where there is none
 * (native, Alipay, Baidu, an older WeChat or Douyin), a `CryptoUnavailableError` (`CryptoError`, passed in) saying what
 * to pass.
 */
export function wechatRandomBytes(runtime: CocosRuntime, wx: WechatApi | undefined, n: number, CryptoError: typeof CryptoUnavailableError): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const tt = (globalThis as { tt?: RandomApi }).tt;
    const api: RandomApi | undefined = wx?.getUserCryptoManager?.() ?? [wx as Partial<RandomApi> | undefined, tt].find((host): host is RandomApi => typeof host?.getRandomValues == 'function');
    if (!api)
      throw new CryptoError(
        `no secure random source on Cocos ${runtime}: pass options.getRandomValues, a function filling the Uint8Array it is given with secure random bytes and returning it (e.g. a bridge to the OS's secure random)`,
      );
    // An answer that never comes would hold the tracker's id pool (core/tracker/session-id.ts) `filling` for the run,
    // every id then from Math.random: after 10 s it fails, and the next id asks again. Fewer bytes than asked fail too.
    const fail = (why: string) => (clearTimeout(timer), reject(new CryptoError(`getRandomValues ${why}`)));
    const timer = setTimeout(() => fail('did not answer within 10 s'), 10_000); // no extra setTimeout arguments: not every mini-game timer passes them
    api.getRandomValues({
      length: n,
      success: ({ randomValues }) => {
        const bytes = new Uint8Array(randomValues);
        bytes.length == n ? (clearTimeout(timer), resolve(bytes)) : fail(`gave ${bytes.length} of ${n} bytes`);
      },
      fail: (error) => fail(`failed: ${error?.errMsg}`),
    });
  });
}
