/**
 * What an adapter supplies to the platform-neutral core: storage, lifecycle, crypto, HTTP and a way to
 * open a web view. Its names are part of the product: adapters, tests and users' own platforms implement it.
 * @see DESIGN section 4
 */

/** A persistent key/value store. Values are JSON-serialisable. */
export interface KeyValueStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every stored key, or those starting with `prefix`. */
  keys(prefix?: string): Promise<string[]>;
}

/** Foreground/background signals of the host. Each `on*` returns its unsubscribe function. */
export interface Lifecycle {
  onBackground(listener: () => void): () => void;
  onForeground(listener: () => void): () => void;
  onUnload?(listener: () => void): () => void;
  /**
   * Whether the game is in the background now, asked once as a tracker starts: a web page can load in a
   * background tab (opened with a middle click, or by the browser restoring tabs), where nothing is played and
   * no change is announced until it is shown. Absent: the tracker starts in the foreground.
   */
  isInBackground?(): boolean;
  /**
   * Where going to the background may be the last event the code ever gets (a browser page: a hidden tab is
   * closed, discarded or evicted from the back/forward cache without another event): `pageExit` of
   * game-campaign-sdk/browser. The tracker then ends and sends the running session as it goes to the background
   * and continues it as a new session when it comes back. Absent (apps, engines, the memory platform unless
   * asked): a short background pauses and resumes the same session. The platform passes it, rather than the
   * tracker importing it, so that hosts without it do not carry its code (a React Native app keeps every line its
   * entry reaches).
   */
  readonly pageExit?: TrackerPageExit;
}

/**
 * The tracker's page exit (`pageExit`, exported by game-campaign-sdk/browser), for
 * {@link Lifecycle.pageExit}. Opaque here, so that this contract imports nothing of the tracker: pass it as it is.
 */
export type TrackerPageExit = (...tracker: never[]) => unknown;

/** Secure randomness and SHA-256; async because `wx.getRandomValues` and expo-crypto are. */
export interface PlatformCrypto {
  randomBytes(n: number): Promise<Uint8Array>;
  /**
   * The same bytes at once, where the source is synchronous (`getRandomValues`). The tracker takes the ids of
   * sessions started before `randomBytes` answered from it; without it they come from `Math.random`, which
   * Hermes seeds with 32 bits, so such ids would repeat across players.
   */
  randomBytesSync?(n: number): Uint8Array;
  sha256(data: Uint8Array): Promise<Uint8Array>;
}

/** Connectivity, where the host can tell. */
export interface NetworkStatus {
  isOnline(): boolean;
  onChange(listener: (online: boolean) => void): () => void;
}

/** The fetch function the core calls (XHR-backed where a host has no fetch). */
export type FetchLike = (input: string | Request, init?: RequestInit) => Promise<Response>;

/**
 * A web view the platform opened. assumed: platforms that can only hand the URL to another app (React Native's
 * `Linking`, Cocos native `sys.openURL`) cannot see it close, so their `closed` settles only on `close()`.
 */
export interface WebViewHandle {
  /** Settles when the web view is gone: closed by the player, by the page's close message, or by `close()`. */
  readonly closed: Promise<void>;
  /** Closes the web view (no-op when it is already closed). */
  close(): void;
}

/** Everything the core needs from the runtime it runs in. */
export interface Platform {
  storage: KeyValueStorage;
  lifecycle: Lifecycle;
  crypto: PlatformCrypto;
  fetch: FetchLike;
  /** Shows `url` in a web view over the game. @throws when this platform cannot show one (e.g. mini-games) */
  openWebView(url: string, options?: { title?: string }): Promise<WebViewHandle>;
  /**
   * Where no web view can show (mini-games ever; React Native while no web view host is rendered): the error
   * `gc.webview.open` rejects with before it asks the relay for a token, or undefined when one can show now.
   */
  webViewUnavailable?(): Error | undefined;
  network?: NetworkStatus;
  /**
   * Runs `task` exclusively across tabs/instances sharing the same storage; a running tracker holds one for its
   * life, so it must allow long holds. Without it, one tracker per storage at a time: a second one (another process
   * on one data folder, or a second SDK in the same context) takes the first's running session for a crashed one
   * and sends it ended at its last checkpoint; the first's full session is then SKIPPED as a duplicate, and its
   * play after that is lost. The React Native platform and Cocos native and mini-game builds lock within their
   * JavaScript context; a Cocos web build with the browser's Web Locks.
   */
  lock?<T>(name: string, task: () => Promise<T>): Promise<T>;
  /** Wall clock, ms since the epoch. */
  now(): number;
  /** ms from an arbitrary origin; never goes backwards. */
  monotonic(): number;
}
