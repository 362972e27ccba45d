/**
 * Opens the campaign web view: a PKCE pair made on the device, a one-time token bound to its challenge from the
 * game server's relay, and `{url}?ott=<token>#code_verifier=<verifier>` shown through the platform. The verifier
 * travels only in the URL fragment, which browsers never send to a server, so no server log, proxy or relay ever
 * holds both halves; it is not kept anywhere either. PKCE and the URL are ./webview-url.ts, imported when a web view
 * first opens (no game downloads them at start-up).
 * @see DESIGN section 7; spec "Create web view one-time token"
 */
import type { Platform, WebViewHandle } from '../platform.js';
import { relayCaller, type RelayCall } from '../relay/client-request.js';
import type { RelayTarget } from '../relay/sender.js';
import { withoutKeys } from '../without-keys.js';

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
  /** Carried by the webhooks the session's actions trigger. */
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
  readonly #platform: Platform;
  readonly #call: <T>(call: RelayCall) => Promise<T>;
  #current: WebViewHandle | undefined;
  /** How many times the game called close(): an open() that sees it change on the way shows nothing. */
  #closes = 0;

  constructor(options: WebViewLauncherOptions) {
    this.#platform = options.platform;
    this.#call = relayCaller({ ...options, fetch: options.platform.fetch });
  }

  /**
   * Makes a PKCE pair, gets a one-time token (60 s, single use) for its challenge from the relay
   * (`POST /webview/ott`) and opens the web view with it. A `close()` before it is shown (the player went back while
   * it loaded) leaves it unshown: the handle it returns is closed.
   * @throws RelayAuthError when the game's session is refused; RateLimitError once 429 retries are spent;
   * ValidationError for malformed options (the relay's, before a token is made); `ConnectionError`/`TimeoutError`; `platform.webViewUnavailable()`'s
   * error (before any request) or whatever `platform.openWebView` throws where the platform cannot show one; the loader's error when PKCE's code, imported on
   * the first `open()`, cannot load (the page went offline)
   */
  async open(options: WebViewOpenOptions = {}): Promise<WebViewHandle> {
    // The relay checks these fields with the zod schema and answers a VALIDATION_ERROR with details.
    // A platform that can never show one refuses first: no token is spent, offline or not.
    const unavailable = this.#platform.webViewUnavailable?.();
    if (unavailable) throw unavailable;
    const { title } = options;
    const request = withoutKeys(options, 'title');
    const closes = this.#closes;
    // PKCE and the URL's code load with the first open: an import that fails rejects this call, before any token exists.
    const url = await (await import('./webview-url.js')).webViewUrl(this.#platform.crypto, this.#call, request);
    // Closes the page shown before; true when the game closed this one on the way (the player went back,
    // gc.dispose()). The count this close() adds is taken back, so only the game's calls count.
    const cancelled = () => (this.close(), this.#closes-- > closes + 1);
    // A closed handle in place of a page that is not to show (an external browser could not be closed again).
    const handle = cancelled() ? { closed: Promise.resolve(), close() {} } : await this.#platform.openWebView(url, { title });
    // Of two open() calls racing, the one that finishes last stays open.
    if (cancelled()) handle.close();
    else this.#current = handle;
    handle.closed.then(() => {
      if (this.#current === handle) this.#current = undefined;
    }, () => undefined);
    return handle;
  }

  /** Closes the web view this launcher opened, or is opening (that `open()` then shows nothing). */
  close(): void {
    this.#closes++;
    this.#current?.close();
    this.#current = undefined;
  }
}
