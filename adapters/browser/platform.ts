/**
 * `createBrowserPlatform`: the {@link Platform} of a web page (HTML5 games, Unity WebGL and Cocos web builds),
 * wired from the pieces in this folder. Behaviour lives in core; this is wiring.
 * @see DESIGN section 4
 */
import type { FetchLike, Platform } from '../../core/platform.js';
import { withKeepaliveQuota } from '../../core/tracker/keepalive-quota.js';
import { fromGetRandomValues, getRandomValuesOf, platformCrypto, subtleDigest } from '../shared/crypto.js';
import { createBrowserLifecycle } from './lifecycle.js';
import { createBrowserLock, type BrowserLockOptions } from './lock.js';
import { connections } from './idb-connection.js';
import { createBrowserNetwork } from './network.js';
import { createIdbStorage, type BrowserStorage, type IdbStorageOptions } from './storage.js';
import type { BrowserWebViewOptions } from './webview-options.js';

/** Options of {@link createBrowserPlatform}. */
export interface BrowserPlatformOptions extends IdbStorageOptions {
  /** The store. @defaultValue IndexedDB through {@link createIdbStorage} with `dbName`, `storeName`, `onError` */
  storage?: BrowserStorage;
  /** The fetch to send with. @defaultValue the window's `fetch` */
  fetch?: FetchLike;
  /** How the web view opens. @defaultValue an iframe overlay over `document.body` */
  webView?: BrowserWebViewOptions;
  /** Timing of the storage lease used where the Web Locks API is missing. */
  lease?: Pick<BrowserLockOptions, 'leaseMs' | 'pollMs'>;
  /**
   * The global object the platform reads (`document`, `navigator`, `crypto`, `fetch`, `performance`): for tests
   * and frames. The Web Locks API is taken from its `navigator.locks`. @defaultValue globalThis
   */
  window?: Window & typeof globalThis;
}

/** The browser platform: a {@link Platform} whose storage says whether it persists. */
export interface BrowserPlatform extends Platform {
  storage: BrowserStorage;
  lock: NonNullable<Platform['lock']>;
}

/**
 * Creates the platform of this page. Nothing is touched before it is called (the entry is safe to import in
 * server-side rendering); IndexedDB is opened on first use.
 * @throws TypeError where there is no page (`document`): a Web Worker, server-side rendering
 * @example
 * ```ts
 * const platform = createBrowserPlatform({ onError: (error) => console.warn(error) });
 * const tracker = new PlaytimeTracker({ platform, userId, relay: { url: '/campaign' } });
 * ```
 */
export function createBrowserPlatform(options: BrowserPlatformOptions = {}): BrowserPlatform {
  const window = options.window ?? globalThis;
  const { document, navigator } = window;
  // A Web Worker (an engine's worker mode) has no page to follow, nor has a server rendering the game's page (SSR:
  // Node, Bun, Deno): say which, rather than fail on `document` later.
  if (!document) throw new TypeError('game-campaign-sdk/browser runs on a page (window, document), not in a Web Worker or server');
  const storage = options.storage ?? createIdbStorage(options);
  const randomBytes = fromGetRandomValues(getRandomValuesOf(window.crypto)!);
  /** A `pagehide` the back/forward cache does not keep: the page is being unloaded (./lifecycle.ts never listens to `unload`). */
  let unloading: unknown;
  window.addEventListener('pagehide', (event) => (unloading = !event.persisted));
  return {
    storage,
    lifecycle: createBrowserLifecycle(window, document),
    // SHA-256 from crypto.subtle; pages on plain http (not localhost) have none and load ../shared/sha256.js on first use.
    // randomBytesSync: ids of sessions started at once come from getRandomValues too, not Math.random (which
    // JavaScriptCore, Safari's engine, seeds with 32 bits).
    crypto: { ...platformCrypto(randomBytes, subtleDigest(window.crypto)), randomBytesSync: randomBytes },
    // The page's own fetch (bound to its window: an unbound `fetch` throws "Illegal invocation"), `keepalive` passed
    // through; a keepalive request the browser refuses (its 64 KiB quota, shared with the game's own beacons) is sent
    // again as an ordinary one, unless the page is being unloaded (the browser may have delivered it: core/tracker/keepalive-quota.ts).
    fetch: withKeepaliveQuota(options.fetch ?? ((input, init) => window.fetch(input, init)), () => unloading),
    // The overlay's code loads when a web view first opens (the launcher has awaited PKCE and a token by then).
    openWebView: async (url, open) => (await import('./webview.js')).createBrowserWebView(window, options.webView)(url, open),
    network: createBrowserNetwork(window, navigator),
    lock: createBrowserLock({ ...options.lease, storage, locks: navigator.locks }),
    now: () => Date.now(),
    monotonic: () => window.performance.now(),
    // Whether an IndexedDB connection was lost under the page (./idb-connection.ts), for the tracker's page exit; spread:
    // not a member of the public type.
    ...{ lost: connections },
  };
}
