/**
 * The string stores of Cocos's builds: `sys.localStorage` on web (the page's `localStorage`) and native
 * (synchronous SQLite through `jsb`), `wx.*StorageSync` on WeChat (10 MB per game, 1 MB per key, a write
 * can throw, a missing key reads as `''`).
 */
import type { StringStore } from '../shared/string-storage.js';
import type { WechatApi } from './types.js';

// `sys.localStorage` (web and native) goes through webStorageStore of ../shared/string-storage.ts.

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
