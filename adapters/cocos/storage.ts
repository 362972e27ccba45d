/**
 * The string stores of Cocos's builds: `sys.localStorage` on web (the page's `localStorage`) and native
 * (synchronous SQLite through `jsb`), `wx.*StorageSync` on WeChat (10 MB per game, 1 MB per key, a write
 * can throw, a missing key reads as `''`).
 */
import { webStorageStore, type StringStore } from '../shared/string-storage.js';
import type { CocosSys, WechatApi } from './types.js';

/** `sys.localStorage`, read when first used (it is `{}` until the engine has started). */
export function cocosLocalStore(sys: CocosSys): StringStore {
  return webStorageStore(sys.localStorage);
}

/** WeChat's synchronous storage. Values are our JSON text; a value stored by other code is read as its JSON. */
export function wechatStore(wx: WechatApi): StringStore {
  return {
    getItem(key) {
      const value: unknown = wx.getStorageSync(key);
      return value === '' || value === null || value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
    },
    setItem: (key, value) => wx.setStorageSync(key, value),
    removeItem: (key) => wx.removeStorageSync(key),
    keys: () => wx.getStorageInfoSync().keys,
  };
}
