/**
 * Opens the campaign web view: a PKCE pair made on the device, a one-time token bound to its challenge from the
 * game server's relay, and `{url}?ott=<token>#code_verifier=<verifier>` shown through the platform. The verifier
 * travels only in the URL fragment, which browsers never send to a server, so no server log, proxy or relay ever
 * holds both halves; it is not kept anywhere either. All that is ./open-page.ts, imported when a web view first opens
 * (no game downloads it at start-up); the launcher keeps what `open()` and `close()` share.
 * @see DESIGN section 7; spec "Create web view one-time token"
 */
import type { Platform, WebViewHandle } from '../platform.js';
import { relayCaller, type RelayCall } from '../relay/client-request.js';
import type { RelayTarget } from '../relay/sender.js';

/** What {@link WebViewLauncher.open} shows. */
export interface WebViewOpenOptions {
  /** Restricts the web view to one campaign. @defaultValue the project's active campaign */
  campaignId?: string;
  /** Shows a campaign-detail button on the boost screen. @defaultValue false */
  showCampaignDetail?: boolean;
  /** Stored with the web view session. */
  metadata?: Record<string, unknown>;
  /** A session on sample data. @defaultValue false */
  isTest?: boolean;
  /** Carried by the webhooks the session's actions trigger, bound to the player by the relay (`relayCallbackId`). */
  callbackId?: string;
  /** Title for platforms whose web view shows one. */
  title?: string;
}

/** Options of {@link WebViewLauncher}. */
export interface WebViewLauncherOptions {
  /** Supplies `openWebView`, `crypto` and `fetch`. */
  platform: Platform;
  /** The game server's relay, which issues the one-time token for the player it authenticates. */
  relay: RelayTarget;
  /** Per-attempt time-out of the token request, ms. @defaultValue 30000 */
  timeoutMs?: number;
  /** Retries after a 429. @defaultValue 2 */
  maxRetries?: number;
  /** Source of jitter for the retry backoff. @defaultValue Math.random */
  random?: () => number;
}

/** What a launcher's `open()` (./open-page.ts) and `close()` share. */
export interface LauncherState {
  readonly platform: Platform;
  readonly call: <T>(call: RelayCall) => Promise<T>;
  /** The page shown, until it is closed. */
  current?: WebViewHandle | undefined;
  /** How many times the game called `close()`: an `open()` that sees it change on the way shows nothing. */
  closes: number;
  /** The token request of the `open()` called last (./open-page.ts): the next one waits for it, an older one shows nothing. */
  asking?: Promise<unknown>;
}

/**
 * `gc.webview`: opens the campaign web view for the player the relay authenticates. One web view at a time
 * (assumed): opening another closes the first, as the service invalidates the older session anyway.
 * @example
 * ```ts
 * const view = await gc.webview.open({ campaignId: 'cmp_spring_festival', showCampaignDetail: true });
 * await view.closed; // the player closed it
 * ```
 */
export class WebViewLauncher {
  readonly #state: LauncherState;

  constructor(options: WebViewLauncherOptions) {
    this.#state = { platform: options.platform, call: relayCaller({ ...options, fetch: options.platform.fetch }), closes: 0 };
  }

  /**
   * Makes a PKCE pair, gets a one-time token (60 s, single use) for its challenge from the relay
   * (`POST /webview/ott`) and opens the web view with it. A `close()` before it is shown (the player went back while
   * it loaded) leaves it unshown: the handle it returns is closed.
   * @throws RelayAuthError when the game's session is refused; RateLimitError once 429 retries are spent;
   * ValidationError for malformed options (the relay's, before a token is made); `ConnectionError`/`TimeoutError`; an `Error` showing the
   * relay's answer when a 200 holds no string `url` or no non-empty string `ott`; `platform.webViewUnavailable()`'s
   * error (before any request) or whatever `platform.openWebView` throws where the platform cannot show one; the loader's error when the code of
   * opening, imported on the first `open()`, cannot load (the page went offline)
   */
  async open(options?: WebViewOpenOptions): Promise<WebViewHandle> {
    // A platform that can never show one refuses first: no token is spent, offline or not.
    const state = this.#state;
    const unavailable = state.platform.webViewUnavailable?.();
    if (unavailable) throw unavailable;
    // A close() from now on cancels this open(), also while its code loads.
    const closes = state.closes;
    // PKCE, the token and the page load with the first open: an import that fails rejects this call, before any token exists.
    // No default parameter (`= {}`): lowered for React Native, a default makes the generator take `arguments`.
    return (await import('./open-page.js')).openPage(state, options, closes);
  }

  /** Closes the web view this launcher opened, or is opening (that `open()` then shows nothing). */
  close(): void {
    const state = this.#state;
    state.closes++;
    state.current?.close();
    state.current = undefined;
  }
}
