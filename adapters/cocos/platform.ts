/**
 * The Cocos Creator 3.8 {@link Platform}: web, native and WeChat mini-game builds, from the `cc` objects the
 * game passes in. Nothing is read from the engine at import; everything at `createCocosPlatform`, and
 * storage only at first use.
 * @see DESIGN section 4, docs/guides/cocos.md
 */
import type { FetchLike, Platform, WebViewHandle } from '../../core/platform.js';
import { ensureAbortController } from '../shared/abort-controller.js';
import { monotonicClock } from '../shared/clock.js';
import { fromGetRandomValues, getRandomValuesOf, hostCrypto, platformCrypto, subtleDigest, type RandomSource } from '../shared/crypto.js';
import { CryptoUnavailableError } from '../shared/errors.js';
import { lifecycleHub, pageVisibilitySource, type LifecycleSource } from '../shared/lifecycle-hub.js';
import { probedStorage, webStorageStore } from '../shared/string-storage.js';
import { browserNetwork, wechatNetwork } from './network.js';
import { wechatStore } from './storage.js';
import type { CocosModules, CocosPlatformOptions, CocosRuntime, WechatApi } from './types.js';
import { cocosOpenWebView } from './web-view.js';
import { createXhrFetch, type XhrConstructor } from './xhr-fetch.js';

/** The Cocos platform, with the build it detected and whether its storage persists. */
export interface CocosPlatform extends Platform {
  /** `wechat` when `wx` is the mini-game API, `native` when `sys.isNative`, else `web`. */
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
  // A `wx` that is not the mini-game API (jWeixin on a web page in WeChat's browser) is ignored: a web build.
  const wx = isWechatMiniGameApi(options.wx) ? options.wx : undefined;
  const runtime: CocosRuntime = wx ? 'wechat' : engine.sys.isNative ? 'native' : 'web';
  if (runtime !== 'web') ensureAbortController();
  const g = globalThis as Record<string, any>;
  const onStorageError = options.onStorageError ?? ((error) => console.warn(`[game-campaign] ${error.message}`));
  // `sys.localStorage` is read when storage is first used: it is `{}` until the engine has started.
  const storage = probedStorage(() => (wx ? wechatStore(wx) : webStorageStore(engine.sys.localStorage)), onStorageError);

  return {
    runtime,
    get persistentStorage() {
      return storage.persistent;
    },
    storage,
    lifecycle: lifecycleHub(lifecycleSources(runtime, engine, g)),
    crypto: platformCrypto(randomSource(runtime, options, wx), subtleDigest(hostCrypto())),
    fetch: options.fetch ?? hostFetch(runtime, options.XMLHttpRequest ?? g['XMLHttpRequest']),
    openWebView: cocosOpenWebView(runtime, engine.sys, options.webView),
    // The page's `window` and `navigator` are globals: globalThis has both.
    ...(wx ? { network: wechatNetwork(wx) } : runtime === 'web' && g['navigator'] && g['window'] ? { network: browserNetwork(g as Parameters<typeof browserNetwork>[0]) } : {}),
    now: () => Date.now(),
    monotonic: monotonicClock(),
  };
}

/**
 * Whether `wx` is WeChat's mini-game API, not the JS-SDK (`jWeixin`) a web page in WeChat's browser gets as
 * `window.wx` (its API list, developers.weixin.qq.com/doc/offiaccount/OA_Web_Apps/JS-SDK.html, has
 * `getNetworkType` but no `*StorageSync` call and no `onNetworkStatusChange`). Checked by the calls themselves
 * rather than `sys.platform === sys.Platform.WECHAT_GAME` (set only in the engine's WeChat build, cocos-engine
 * v3.8.5 pal/system-info/minigame/system-info.ts:35-36): the check holds for whatever `sys` the game passes, and
 * it looks at the two calls the WeChat runtime makes first (storage, network events), which jWeixin lacks.
 */
function isWechatMiniGameApi(wx: any): wx is WechatApi {
  return typeof wx?.getStorageSync == 'function' && typeof wx.onNetworkStatusChange == 'function';
}

/** `game` EVENT_HIDE/EVENT_SHOW everywhere; on web also `visibilitychange`/`pagehide` (the game events are not guaranteed there). */
function lifecycleSources(runtime: CocosRuntime, engine: CocosModules, g: Record<string, any>): LifecycleSource[] {
  const gameEvents: LifecycleSource = (signal) => {
    const hide = () => signal.hidden(true);
    const show = () => signal.hidden(false);
    const { game, Game } = engine;
    game.on(Game.EVENT_HIDE, hide);
    game.on(Game.EVENT_SHOW, show);
    return () => {
      game.off(Game.EVENT_HIDE, hide);
      game.off(Game.EVENT_SHOW, show);
    };
  };
  const doc = g['document'];
  return runtime === 'web' && doc && typeof doc.addEventListener === 'function' ? [gameEvents, pageVisibilitySource(doc, g['window'])] : [gameEvents];
}

/**
 * The global fetch on web and native (native: whatwg-fetch over XHR); an XHR fetch on WeChat, which has no
 * fetch (its request code is imported on the first request: web and native builds never load it).
 */
function hostFetch(runtime: CocosRuntime, Xhr: XhrConstructor | undefined): FetchLike {
  if (runtime !== 'wechat') return (input, init) => (globalThis as { fetch: FetchLike }).fetch(input, init);
  if (typeof Xhr !== 'function') throw new TypeError('createCocosPlatform: WeChat has no XMLHttpRequest; pass options.XMLHttpRequest or options.fetch');
  return createXhrFetch(Xhr);
}

/** The game's `getRandomValues`, else WeChat's async crypto manager, else the runtime's `crypto.getRandomValues`. */
function randomSource(runtime: CocosRuntime, options: CocosPlatformOptions, wx: WechatApi | undefined): RandomSource {
  if (options.getRandomValues) return fromGetRandomValues(options.getRandomValues);
  if (wx?.getUserCryptoManager) {
    const manager = wx.getUserCryptoManager();
    return (n) =>
      new Promise((resolve, reject) =>
        manager.getRandomValues({
          length: n,
          success: ({ randomValues }) => resolve(new Uint8Array(randomValues)),
          fail: (error) => reject(new CryptoUnavailableError(`wx getRandomValues failed: ${error?.errMsg}`)),
        }),
      );
  }
  const host = getRandomValuesOf(hostCrypto());
  if (host) return fromGetRandomValues(host);
  return () => {
    throw new CryptoUnavailableError(`no secure random source on Cocos ${runtime}: pass options.getRandomValues`);
  };
}
