/**
 * A fake of the `cc` objects a Cocos Creator 3.8 game passes in, following cocos/cocos-engine v3.8.5:
 * - `sys.localStorage` is `{}` until `sys.init()` runs at engine start (cocos/core/platform/sys.ts), then the
 *   page's `localStorage` on web, or on native the `jsb` store (native/cocos/bindings/manual/jsb_global.cpp
 *   `register_sys_localStorage`: SQLite `jsb.sqlite`, synchronous, `getItem/setItem/removeItem/clear/key(i)`
 *   and a `length` getter; `getItem` -> null when missing; values force-stringified).
 * - Native writes never throw: a failed SQLite write (a full disk) is printed and dropped, on iOS/desktop
 *   (native/cocos/storage/local-storage/LocalStorage.cpp `localStorageSetItem`: `printf("Error in
 *   localStorage.setItem()")`) and Android (native/cocos/platform/android/java/src/com/cocos/lib/CocosLocalStorage.java
 *   `setItem`/`removeItem`: `catch (Exception e) { e.printStackTrace(); }`): `fillDisk()`.
 * - When the probe of the host storage throws, Cocos replaces it with stubs that only `warnID(5200)` and
 *   return undefined, plus `length: 0` (cocos/core/platform/sys.ts:315-327, `sys.init`): `breakStorage()`.
 * - `sys.platform` is a `sys.Platform` value (pal/system-info/enum-type/platform.ts:25-56), fixed when the
 *   engine is built for a platform (pal/system-info/minigame/system-info.ts:35-36: `WECHAT` -> `WECHAT_GAME`).
 * - `game` is an `EventTarget`; `Game.EVENT_HIDE = 'game_on_hide'`, `Game.EVENT_SHOW = 'game_on_show'`,
 *   `Game.EVENT_CLOSE = 'game_on_close'` (cocos/game/game.ts). `sys.openURL` is `window.open` on web, `jsb.openURL` on native, nothing on
 *   mini-games (pal/system-info/minigame).
 * No WebCrypto is modelled here: tests remove the `crypto` global for native and WeChat runs.
 */

/** One device's persistent SQLite/localStorage table: survives a "restart" (a new fake cc on the same map). */
export type DeviceTable = Map<string, string>;

export interface FakeCc {
  sys: { localStorage: any; isNative: boolean; isBrowser: boolean; platform: string; Platform: typeof PLATFORM; openURL(url: string): void };
  game: { on(type: string, callback: () => void, target?: unknown, once?: boolean): void; off(type: string, callback?: (...args: any[]) => void): void };
  Game: { readonly EVENT_HIDE: 'game_on_hide'; readonly EVENT_SHOW: 'game_on_show'; readonly EVENT_CLOSE: 'game_on_close' };
  /** What `sys.init` does: `sys.localStorage` becomes the host store. */
  start(): void;
  /** What Cocos does when its storage probe throws: warn-only stubs from now on. */
  breakStorage(): void;
  /** A native build's disk is full (`true`) or has room again: `setItem`/`removeItem` change nothing and throw nothing. */
  fillDisk(full?: boolean): void;
  /** Fires `Game.EVENT_HIDE` / `Game.EVENT_SHOW`, as the engine does on app pause/resume. */
  emit(type: string): void;
  /** URLs given to `sys.openURL`. */
  readonly opened: string[];
  /** Warnings the stubs logged (warnID 5200). */
  readonly warnings: number[];
  /** Listeners currently registered on `game`. */
  listenerCount(): number;
}

/** The `sys.Platform` values the fake uses (pal/system-info/enum-type/platform.ts:25-56, abridged). */
const PLATFORM = { DESKTOP_BROWSER: 'DESKTOP_BROWSER', MOBILE_BROWSER: 'MOBILE_BROWSER', ANDROID: 'ANDROID', IOS: 'IOS', WECHAT_GAME: 'WECHAT_GAME' } as const;
const PLATFORM_OF = { web: PLATFORM.MOBILE_BROWSER, native: PLATFORM.ANDROID, wechat: PLATFORM.WECHAT_GAME } as const;

/** A fake `cc` for a web (`localStorage`) or native (`jsb` SQLite) build, over `table`. */
export function createFakeCc(runtime: 'web' | 'native' | 'wechat', table: DeviceTable = new Map()): FakeCc {
  const listeners = new Map<string, Set<() => void>>();
  const opened: string[] = [];
  const warnings: number[] = [];
  let diskFull = false;
  const sys: FakeCc['sys'] = {
    localStorage: {},
    isNative: runtime === 'native',
    isBrowser: runtime === 'web',
    platform: PLATFORM_OF[runtime],
    Platform: PLATFORM,
    openURL(url) {
      if (runtime !== 'wechat') opened.push(url); // mini-games: does nothing (warns in DEBUG only)
    },
  };
  return {
    sys,
    game: {
      on(type, callback) {
        if (!listeners.has(type)) listeners.set(type, new Set());
        listeners.get(type)!.add(callback);
      },
      off(type, callback) {
        if (callback) listeners.get(type)?.delete(callback as () => void);
        else listeners.delete(type);
      },
    },
    Game: { EVENT_HIDE: 'game_on_hide', EVENT_SHOW: 'game_on_show', EVENT_CLOSE: 'game_on_close' },
    start() {
      sys.localStorage = webStorage(table, () => diskFull);
    },
    breakStorage() {
      // sys.ts:316-326, key for key.
      const warn = () => void warnings.push(5200);
      sys.localStorage = { getItem: warn, setItem: warn, clear: warn, removeItem: warn, key: warn, length: 0 };
    },
    fillDisk(full = true) {
      diskFull = full;
    },
    emit(type) {
      for (const listener of [...(listeners.get(type) ?? [])]) listener();
    },
    opened,
    warnings,
    listenerCount: () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0),
  };
}

/**
 * Web Storage semantics over a Map: strings only (values force-stringified), null when missing; while `full()`, a
 * write or delete is dropped without a word (native's SQLite store on a full disk).
 */
function webStorage(table: DeviceTable, full: () => boolean) {
  return {
    getItem: (key: string) => (table.has(key) ? table.get(key)! : null),
    setItem: (key: string, value: unknown) => void (full() || table.set(key, String(value))),
    removeItem: (key: string) => void (full() || table.delete(key)),
    clear: () => table.clear(),
    key: (index: number) => [...table.keys()][index] ?? null,
    get length() {
      return table.size;
    },
  };
}

/** What {@link createFakeWebView} gives a test: the component, and the engine's side of it. */
export interface FakeWebView {
  view: { url: string; node: { on(type: string, callback: (...args: any[]) => void): void; destroy(): boolean }; setJavascriptInterfaceScheme(scheme: string): void; setOnJSCallback(callback: (...args: any[]) => void): void };
  /** Its node becomes active in the scene: the component's implementation is made and loads `url`. */
  activate(): void;
  /** The page navigates to `url`: a native view hands a URL of its interface scheme to the JS callback instead. */
  navigate(url: string): void;
  /** The warnings the component logged. */
  readonly warnings: string[];
  /** How many times its node was destroyed. */
  readonly destroyed: number;
}

/**
 * A fake `WebView` component (cocos-engine v3.8 cocos/web-view/web-view.ts). Its implementation exists only once its
 * node is active in the scene (`__preload`, which then loads `url`); until then `url` is only kept and
 * `setJavascriptInterfaceScheme`/`setOnJSCallback` do nothing (each is `if (this._impl) ...`). Each URL loaded emits
 * `loading` on the node (platforms/native/engine/jsb-webview.js `loadURL` dispatches LOADING; the component's
 * `onLoading` emits it). The native view calls back `(webview, url)` (native/cocos/ui/webview/WebView.h
 * `ccWebViewCallback`); on web both calls only warn "The platform does not support" (web-view-impl-web.ts). A destroyed
 * node emits `node-destroyed` (cocos/scene-graph/node.ts `_onPreDestroy`).
 */
export function createFakeWebView(runtime: 'web' | 'native'): FakeWebView {
  const listeners: Array<[string, (...args: any[]) => void]> = [];
  const warnings: string[] = [];
  let active = false;
  let url = '';
  let scheme: string | undefined;
  let callback: ((...args: any[]) => void) | undefined;
  let destroyed = 0;
  const emit = (type: string) => listeners.forEach(([name, listener]) => name === type && listener(view));
  const toImpl = (set: () => void) => (runtime === 'web' ? void warnings.push('The platform does not support') : active && set());
  const view: FakeWebView['view'] = {
    get url() {
      return url;
    },
    set url(next) {
      url = next;
      if (active) emit('loading');
    },
    node: {
      on: (type, listener) => void listeners.push([type, listener]),
      destroy: () => (destroyed++, emit('node-destroyed'), true),
    },
    setJavascriptInterfaceScheme: (next) => toImpl(() => (scheme = next)),
    setOnJSCallback: (next) => toImpl(() => (callback = next)),
  };
  return {
    view,
    activate() {
      active = true;
      emit('loading');
    },
    navigate(to) {
      if (scheme && to.startsWith(`${scheme}://`)) callback?.(view, to);
    },
    warnings,
    get destroyed() {
      return destroyed;
    },
  };
}
