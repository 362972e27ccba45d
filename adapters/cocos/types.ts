/**
 * The shapes of what a Cocos game passes in. Structural on purpose: the package's types must not need
 * `cc`'s declarations, yet `test/adapters/cocos/cc-types.check.ts` proves against `@cocos/creator-types` that
 * the engine's own `sys`, `game`, `Game` and `WebView` fit them (`npm run typecheck`).
 */
import type { FetchLike } from '../../core/platform.js';
import type { GetRandomValues } from '../shared/crypto.js';
import type { StorageErrorListener } from '../shared/string-storage.js';
import type { XhrConstructor } from './xhr-fetch.js';

/** The part of `cc.sys` the adapter reads. */
export interface CocosSys {
  /** `{}` until the engine has started; a Web Storage after (or Cocos's warn-only stubs). */
  localStorage: any;
  isNative: boolean;
  /** `false` in a mini-game build (with `isNative` false): read as such only when it is `false`. */
  isBrowser?: boolean;
  /** `window.open` on web, `jsb.openURL` on native, nothing on mini-games. */
  openURL(url: string): void;
}

/** The part of `cc.game` the adapter uses: an `EventTarget`. */
export interface CocosGame {
  on(type: string, callback: () => void, target?: any, once?: boolean): any;
  off(type: string, callback?: (...args: any[]) => void, target?: any): void;
}

/** `cc.Game`, for its event names. */
export interface CocosGameClass {
  readonly EVENT_HIDE: string;
  readonly EVENT_SHOW: string;
  /** Heard on native builds: the game is closing. */
  readonly EVENT_CLOSE?: string;
}

/** The injected `cc` objects. */
export interface CocosModules {
  sys: CocosSys;
  game: CocosGame;
  Game: CocosGameClass;
}

/** A `cc.WebView` component (web, iOS, Android) showing a page over the game. */
export interface CocosWebView {
  url: string;
  readonly node: { on(type: string, callback: (...args: any[]) => void, target?: unknown): unknown; destroy(): boolean | void };
  /** Native only: URLs with this scheme go to the `setOnJSCallback` callback instead of loading. */
  setJavascriptInterfaceScheme?(scheme: string): void;
  setOnJSCallback?(callback: (...args: any[]) => void): void;
}

/**
 * Builds a `WebView` component over the game (a node with a `UITransform` sized to the screen, added to the
 * scene) and returns it; the adapter sets its `url` and destroys its node on close.
 */
export type CocosWebViewFactory = (url: string) => CocosWebView;

/** The WeChat mini-game API (`wx`) calls the adapter uses. @see https://developers.weixin.qq.com/minigame/dev/api/ */
export interface WechatApi {
  getStorageSync(key: string): any;
  setStorageSync(key: string, data: any): void;
  removeStorageSync(key: string): void;
  getStorageInfoSync(): { keys: string[] };
  getNetworkType(options: { success?(result: { networkType: string }): void; fail?(error: unknown): void }): void;
  onNetworkStatusChange(listener: (result: { isConnected: boolean; networkType: string }) => void): void;
  offNetworkStatusChange?(listener?: (result: { isConnected: boolean; networkType: string }) => void): void;
  /** Base library 2.17.3+. */
  getUserCryptoManager?(): {
    getRandomValues(options: { length: number; success?(result: { randomValues: ArrayBuffer }): void; fail?(error: { errMsg?: string }): void }): void;
  };
}

/** Options of {@link createCocosPlatform}. */
export interface CocosPlatformOptions {
  /** `{ sys, game, Game }` from `cc`. */
  cc: CocosModules;
  /**
   * The global `wx`. It selects the WeChat runtime only when it is the mini-game API (it has `getStorageSync` and
   * `onNetworkStatusChange`); a web build in WeChat's browser, where a page with the JS-SDK has
   * `window.wx = jWeixin`, stays a web build. `| undefined`: the global read as it is (`exactOptionalPropertyTypes`).
   */
  wx?: WechatApi | undefined;
  /** Builds the `WebView` component `openWebView` shows. @defaultValue `sys.openURL` (an external browser) on web and native */
  webView?: CocosWebViewFactory;
  /** The fetch to use. @defaultValue the global `fetch` on web and native; an XHR fetch on WeChat */
  fetch?: FetchLike;
  /** The XHR the WeChat fetch uses. @defaultValue the global `XMLHttpRequest` (Cocos's wrapper over `wx.request`) */
  XMLHttpRequest?: XhrConstructor;
  /**
   * A secure `getRandomValues` where the runtime has none (Cocos native: e.g. a bridge to the OS's secure
   * random). @defaultValue `crypto.getRandomValues` on web, `wx.getUserCryptoManager()` on WeChat, else `getRandomValues` of
   * `wx` or of the global `tt` (Douyin) on mini-games (also when `undefined`)
   */
  getRandomValues?: GetRandomValues | undefined;
  /** Hears that storage does not persist (data then lives in memory for this run). @defaultValue `console.warn` */
  onStorageError?: StorageErrorListener;
}

/** Which Cocos build the platform runs in: `minigame` is any mini-game given no WeChat-style API as `wx`. */
export type CocosRuntime = 'web' | 'native' | 'wechat' | 'minigame';
