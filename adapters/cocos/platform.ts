/**
 * The Cocos Creator 3.8 {@link Platform}: web, native and WeChat mini-game builds, from the `cc` objects the
 * game passes in. Nothing is read from the engine at import; everything at `createCocosPlatform`, and
 * storage only at first use.
 * @see DESIGN section 4, docs/guides/cocos.md
 */
import { chainLock } from '../../core/chain-lock.js';
import type { Lifecycle, Platform, WebViewHandle } from '../../core/platform.js';
import { pageExit } from '../../core/tracker/page-exit.js';
import { ensureAbortController } from '../shared/abort-controller.js';
import { fromGetRandomValues, getRandomValuesOf, hostCrypto, platformCrypto, subtleDigest, type RandomSource } from '../shared/crypto.js';
import { CryptoUnavailableError, WebViewUnavailableError } from '../shared/errors.js';
import { probedStorage, webStorageStore } from '../shared/string-storage.js';
import { browserNetwork, wechatNetwork } from './network.js';
import type { CocosModules, CocosPlatformOptions, CocosRuntime, WechatApi } from './types.js';
import { nativeClock, steadyClock } from './steady-clock.js';
import { createXhrFetch } from './xhr-fetch.js';

/**
 * The URL scheme a page uses to close the web view on native (`location.href = 'gamecampaign://close'`).
 * assumed: the scheme name. On web the component is an iframe: the page posts `{ type: 'game-campaign:close' }` instead.
 */
export const WEBVIEW_CLOSE_SCHEME = 'gamecampaign';

/**
 * The locks of every Cocos platform in this JavaScript context (`Platform.lock`). A running tracker holds one for its
 * life: an SDK created again while another runs (a second component, a scene or `game.restart()` without `dispose()`)
 * waits for it before it takes that tracker's running session for a crashed one, instead of sending it ended at its
 * last checkpoint (the live tracker's whole session then SKIPPED). Native and WeChat run one context per store; a web
 * build's tabs share one `localStorage`, so it takes the browser's Web Locks instead (see `createCocosPlatform`).
 */
const locks = new Map<string, Promise<void>>();

/** The Cocos platform, with the build it detected and whether its storage persists. */
export interface CocosPlatform extends Platform {
  /** `wechat` when `wx` is the mini-game API, `native` when `sys.isNative`, `minigame` when `sys.isBrowser` is false, else `web`. */
  readonly runtime: CocosRuntime;
  /** Whether storage keeps what is written; undefined until storage is first used. */
  readonly persistentStorage: boolean | undefined;
  openWebView(url: string, options?: { title?: string }): Promise<WebViewHandle>;
}

/**
 * Creates the platform for the running Cocos build.
 * @throws TypeError when `cc.sys`, `cc.game` or `cc.Game` is missing, or WeChat has no XHR
 * @example
 * ```ts
 * import { sys, game, Game } from 'cc';
 * const platform = createCocosPlatform({ cc: { sys, game, Game }, wx: (globalThis as any).wx });
 * ```
 */
export function createCocosPlatform(options: CocosPlatformOptions): CocosPlatform {
  // Not `const { cc } = options`: Cocos reserves the identifier `cc` (its docs: "cc can be used as a property name").
  const engine = options.cc;
  if (!engine?.sys || !engine.game || !engine.Game) throw new TypeError('createCocosPlatform: pass { cc: { sys, game, Game } } from "cc"');
  // `wx` counts only when it is WeChat's mini-game API: a web page in WeChat's browser may have the JS-SDK
  // (`jWeixin`) as `window.wx`, whose API list (developers.weixin.qq.com/doc/offiaccount/OA_Web_Apps/JS-SDK.html) has
  // `getNetworkType` but no `*StorageSync` call and no `onNetworkStatusChange`: that is a web build. Checked by the
  // calls themselves rather than `sys.platform === sys.Platform.WECHAT_GAME` (set only in the engine's WeChat build,
  // cocos-engine v3.8.5 pal/system-info/minigame/system-info.ts:35-36): the check holds for whatever `sys` the game
  // passes, and it looks at the two calls the WeChat runtime makes first (storage, network events), which jWeixin lacks.
  const wx = typeof options.wx?.getStorageSync == 'function' && typeof options.wx.onNetworkStatusChange == 'function' ? options.wx : undefined;
  // Any other mini-game (Douyin `tt`, Alipay and Taobao `my`, Baidu `swan`, Xiaomi, the quick games) passed no
  // WeChat-style API: Cocos 3.8 says so with `isBrowser` false as well as `isNative` (cocos-engine 3.8.4
  // pal/system-info/minigame/system-info.ts). Its adapter gives it what the build then uses: `sys.localStorage` over the
  // platform's storage and `XMLHttpRequest` over its `request` (platforms/minigame/platforms/*/wrapper), and no
  // `fetch`. Before, it was taken for a web page, whose global `fetch` is missing there: nothing was ever delivered.
  const runtime: CocosRuntime = wx ? 'wechat' : engine.sys.isNative ? 'native' : engine.sys.isBrowser === false ? 'minigame' : 'web';
  const miniGame = wx || runtime == 'minigame';
  const g = globalThis as Record<string, any>;
  // The page's `document` and `window` are globals; native and mini-game builds have neither.
  const page = runtime === 'web' ? g : undefined;
  if (!page) ensureAbortController();
  const native = runtime === 'native' ? nativeClock() : undefined;
  const noWebView = miniGame && (() => new WebViewUnavailableError('mini-games cannot show a web view'));
  const onStorageError = options.onStorageError ?? ((error) => console.warn(error));
  // A web build's tabs share one `localStorage`: their locks are the browser's Web Locks (DESIGN: `lock` is exclusive
  // across tabs). Before, a second tab took the first's running session for a crashed one and sent it ended at its
  // last checkpoint (the first's whole session then SKIPPED). Denied (`SecurityError`: an opaque origin, storage
  // blocked), storage is the engine's warn-only stubs too, so this page's memory: a lock within the page is enough,
  // as adapters/browser/lock.ts does. No Web Locks (an http:// page that is not localhost): within the page, as before.
  // assumed: a locked task never rejects with a `SecurityError` of its own (it would run again under the page's lock).
  const webLocks: LockManager | undefined = page?.['navigator']?.locks;
  // `sys.localStorage` is read when storage is first used: it is `{}` until the engine has started.
  // WeChat's code (./wechat.ts) is imported on first use: web and native builds never load it.
  const storage = probedStorage(wx ? async () => (await import('./wechat.js')).wechatStore(wx) : () => webStorageStore(engine.sys.localStorage, !page), onStorageError);

  return {
    runtime,
    get persistentStorage() {
      return storage.persistent;
    },
    storage,
    lifecycle: cocosLifecycle(engine, page?.['document']?.addEventListener ? page : undefined, native?.[1]),
    crypto: platformCrypto(randomSource(runtime, options, wx), subtleDigest(hostCrypto())),
    // The global fetch on web and native (native: whatwg-fetch over XHR); on WeChat, which has no fetch, an XHR
    // fetch (its request code is imported on the first request: web and native builds never load it).
    fetch: options.fetch ?? (miniGame ? createXhrFetch(options.XMLHttpRequest ?? g['XMLHttpRequest']) : (input, init) => g['fetch'](input, init)),
    // Its code loads when a web view first opens. WeChat has none (`sys.openURL` does nothing there): it rejects,
    // and `gc.webview.open` rejects before it spends a token.
    openWebView: async (url) => {
      if (noWebView) throw noWebView();
      return (await import('./web-view.js')).openCocosWebView(url, engine.sys, options.webView);
    },
    ...(noWebView ? { webViewUnavailable: noWebView } : {}),
    // Native builds have no signal: no `network`.
    network: wx ? wechatNetwork(wx) : page?.['navigator'] && page['window'] ? browserNetwork(page['window'], page['navigator']) : undefined,
    lock: (name, task) =>
      webLocks?.request(name, task).catch((error) => {
        if (error?.name != 'SecurityError') throw error;
        return chainLock(locks, name, task);
      }) ?? chainLock(locks, name, task),
    now: () => Date.now(),
    // Web and native have `performance.now()`: the engine reads it on every frame (cocos-engine cocos/game/game.ts:1045,
    // `_calculateDT`), and native defines it (native/cocos/bindings/manual/jsb_global.cpp:1617-1619, commit 4c7a879778).
    // On a WeChat phone it is the wall clock (the engine's adapter sets `performance = { now: Date.now }`): ./steady-clock.ts.
    // Native: ./steady-clock.ts `nativeClock` (Android's steady clock stops while the phone sleeps).
    monotonic: miniGame ? steadyClock(engine) : native ? native[0] : () => performance.now(),
  };
}

/**
 * `game` EVENT_HIDE/EVENT_SHOW everywhere; on a web page (`page`, the global object when it has a `document`) also
 * the page's `visibilitychange`, `freeze` and `pagehide` (a hidden page), since the game events are not guaranteed there. Each
 * subscription attaches its own host listeners and drops them when unsubscribed, and keeps its own hidden state:
 * a change several sources report (the game event, `visibilitychange`, `pagehide`) reaches the listener once per
 * change, and a web page's repeats only resend what no exit request carries, so a page left sends one exit request
 * (each keepalive body counts against the page's 64 KiB), not one per event.
 */
function cocosLifecycle({ game, Game }: CocosModules, page: Record<string, any> | undefined, clock?: (isHidden: boolean) => void): Lifecycle {
  const listen = (hidden: (isHidden: boolean) => void) => {
    // The native clock hears it first: the tracker reads the clock as it hears the change.
    const hide = () => (clock?.(true), hidden(true));
    const show = () => (clock?.(false), hidden(false));
    const visibility = () => hidden(page!['document'].visibilityState === 'hidden');
    const each = (on: boolean) => {
      game[on ? 'on' : 'off'](Game.EVENT_HIDE, hide);
      game[on ? 'on' : 'off'](Game.EVENT_SHOW, show);
      // Native: the game closed while played (a desktop window's close button, `game.end()`, iOS terminating) hears
      // only EVENT_CLOSE, then the engine exits (cocos-engine 3.8.4 engine/Engine.cpp WindowEvent CLOSE -> jsb.onClose
      // -> game.ts `_onClose` -> systemInfo.exit()): a background pauses and stores the running session with all its
      // play (was: its last checkpoint's), recovered at the next start. Not on web (its `close` is followed by
      // `window.close()`, which a tab the player opened ignores: the game plays on) nor mini-games (never emitted).
      clock && game[on ? 'on' : 'off'](Game.EVENT_CLOSE!, hide);
      const method = on ? 'addEventListener' : 'removeEventListener';
      page?.['document'][method]('visibilitychange', visibility);
      // A hidden tab frozen (a mobile browser, before discarding it) hears no other event, and the engine hears no freeze
      // (cocos-engine v3.8 pal/system-info/web/system-info.ts `_registerEvent`): its exit sends what an earlier one could not.
      page?.['document'][method]('freeze', hide);
      // pagehide comes before the page stops running, whatever visibilityState says then (a navigation away).
      page?.['window']?.[method]('pagehide', hide);
    };
    each(true);
    return () => each(false);
  };
  /** The last state a subscription heard: where a later subscription starts from. */
  let last = false;
  /** Hidden now: as last heard, or a web page loaded in a background tab (no event says so until it is shown). */
  const isInBackground = () => last || page?.['document'].visibilityState === 'hidden';
  /**
   * Hears a change to hidden (`background`) or to shown: once per change, however many sources report it; on a web page
   * also each later report of a hidden page (any may be its last: its exit sends what an earlier exit request could
   * not, a tab switched while the relay was down and closed unseen). A repeat sends only what no exit request has in flight.
   */
  const change = (background: boolean) => (listener: () => void) => {
    let hidden = isInBackground();
    return listen((isHidden) => {
      last = isHidden;
      if ((isHidden !== hidden || (page && isHidden)) && (hidden = isHidden) === background) listener();
    });
  };
  // No `onUnload`: `pagehide` is a change to hidden like the others (a separate unload subscription sent the exit
  // again). A web build is a page, whose hidden tab may be closed or discarded with no other event: the tracker's page
  // exit sends the session as it is hidden (DESIGN section 5, "leaving"). Native and mini-game builds are apps: a background pauses.
  return { onBackground: change(true), onForeground: change(false), isInBackground, ...(page ? { pageExit } : {}) };
}

/**
 * The game's `getRandomValues`, else the runtime's `crypto.getRandomValues` (web), else WeChat's crypto manager;
 * native has none of its own. The last is in ./wechat.ts, imported on first use, and so is the refusal where
 * there is no source at all (a rejection with a `CryptoUnavailableError`).
 */
function randomSource(runtime: CocosRuntime, options: CocosPlatformOptions, wx: WechatApi | undefined): RandomSource {
  const getRandomValues = options.getRandomValues ?? getRandomValuesOf(hostCrypto());
  return getRandomValues ? fromGetRandomValues(getRandomValues) : async (n) => (await import('./wechat.js')).wechatRandomBytes(runtime, wx, n, CryptoUnavailableError);
}
