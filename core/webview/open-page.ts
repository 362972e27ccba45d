/**
 * What opening a web view does once the game asks (`WebViewLauncher.open()`): a PKCE pair made on the device, a
 * one-time token bound to its challenge, and `{url}?ott=<token>#code_verifier=<verifier>` shown through the platform.
 * The launcher imports this module (and PKCE with it) when a web view first opens, so a game that never opens one
 * downloads none of it at start-up; the `<script>` bundle loads it with the web view's code
 * (`game-campaign.webview.js`, scripts/entries.mjs). It imports nothing the launcher's own module does (the relay
 * caller comes in with the launcher's state, the route is repeated), so no code is shared between this chunk and the
 * entry.
 * @see DESIGN section 7
 */
import type { WebViewHandle } from '../platform.js';
import type { RelayWebviewToken } from '../relay/protocol.js';
import type { LauncherState, WebViewOpenOptions } from './launcher.js';
import { createPkcePair } from './pkce.js';

/**
 * `RELAY_ROUTES.webviewToken` of core/relay/routes.ts, repeated rather than imported (a test proves the request goes
 * there). Not exported: a React Native app's bundle holds this module as a namespace object, one member per export.
 */
const WEBVIEW_TOKEN_ROUTE = '/webview/ott';

/**
 * Makes a PKCE pair, gets a one-time token bound to its challenge from the relay (`POST /webview/ott`), and shows
 * `{url}?ott=<token>#code_verifier=<verifier>` through the platform. The verifier travels only in the URL's fragment,
 * which browsers never send to a server. A `close()` of the launcher on the way (the player went back while it
 * loaded, `gc.dispose()`) leaves the page unshown: the handle returned is closed (`closes`: the launcher's count of
 * `close()` calls when `open()` was called). So does a later `open()`: of two racing, the one called last is shown.
 */
export async function openPage(state: LauncherState, options: WebViewOpenOptions | undefined, closes: number): Promise<WebViewHandle> {
  const ask = async () => {
    const pair = await createPkcePair(state.platform.crypto);
    // The relay checks these fields with the zod schema and answers a VALIDATION_ERROR with details. The title is
    // the platform's: undefined, JSON leaves it out (object rest would cost React Native apps Babel's helpers).
    const body = { ...options, title: undefined, codeChallenge: pair.codeChallenge };
    const token = await state.call<RelayWebviewToken>({ method: 'POST', path: WEBVIEW_TOKEN_ROUTE, body, answer: 'OneTimeToken' });
    // A 200 without an absolute http(s) url and a non-empty string ott (a misconfigured relay, a proxy's 200): an error
    // showing what the relay answered, rather than a TypeError from `split` or a page opened with `ott=undefined` or
    // `ott=`. The words repeat the flusher's own ("the relay answered with an unexpected body"), which gzip takes for
    // almost nothing in a Metro app. The url is checked here, for every platform, before the verifier joins it: React
    // Native's `Linking.openURL` hands any other scheme to the system (another app's, `intent:`), token and verifier with
    // it, and its web view host has no check of its own (the browser's and Cocos's web views also refuse it:
    // adapters/shared/http-page.ts). `test` of a missing url reads "undefined", which fails; `data` itself is an object
    // (the transport refuses any other).
    if (!/^https?:\/\/[^/]/i.test(token.url) || typeof token.ott != 'string' || !token.ott) throw new Error(`gc.webview.open: the relay answered with an unexpected body: ${JSON.stringify(token)}`);
    // assumed: a fragment on the relay's URL is replaced; `&ott=` when the URL already has a query.
    const base = token.url.split('#')[0]!;
    return `${base}${base.includes('?') ? '&' : '?'}ott=${encodeURIComponent(token.ott)}#code_verifier=${pair.codeVerifier}`;
  };
  // One token request at a time, in the order open() was called (after the one before, whatever its outcome): the
  // service ends a player's older token as it issues a newer one, so the token of the open() called last is the one
  // issued last, and its page the one that works. Before, two calls (a double tap) raced, the answer that arrived
  // last was shown, and when the service had issued that token first the player saw "token replaced".
  const asking = (state.asking = Promise.resolve(state.asking).then(ask, ask));
  const page = await asking;
  /** Closes the page shown before (one web view at a time); true when the game closed this one on the way or opened another since. */
  const cancelled = () => (state.current?.close(), (state.current = undefined), closes !== state.closes || asking !== state.asking);
  // A closed handle in place of a page that is not to show (an external browser could not be closed again).
  const handle = cancelled() ? { closed: Promise.resolve(), close() {} } : await state.platform.openWebView(page, { title: options?.title });
  if (cancelled()) handle.close();
  else state.current = handle;
  handle.closed.then(() => {
    if (state.current === handle) state.current = undefined;
  }, () => undefined);
  return handle;
}
