/**
 * The browser web view's settings and protocol constants, apart from its code (./webview.ts), which the
 * platform imports only when a web view opens.
 * @see DESIGN sections 4 and 7
 */

/**
 * What the web view page posts (`postMessage({ type: WEBVIEW_CLOSE_MESSAGE }, '*')` to its parent or opener) to
 * be closed. assumed: the spec shows no page-to-game protocol; the emulator's page posts this.
 */
export const WEBVIEW_CLOSE_MESSAGE = 'game-campaign:close';

/**
 * The iframe's sandbox: scripts, and its own origin so the page can call its host (the exchange and the
 * boost). Safe because the page is on the campaign service's origin, never the game's: it cannot reach the game.
 * No forms, popups, top navigation or downloads; no `allow` permissions (the page uses none).
 */
export const WEBVIEW_SANDBOX = 'allow-scripts allow-same-origin';

/** Options of the browser web view. */
export interface BrowserWebViewOptions {
  /** `iframe`: an overlay over the game. `window`: a new browser window (opened from a click, or blocked). @defaultValue 'iframe' */
  mode?: 'iframe' | 'window';
  /** Where the overlay goes. @defaultValue document.body */
  container?: HTMLElement;
}
