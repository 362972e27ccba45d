/**
 * The web view's address: a PKCE pair made on the device, a one-time token bound to its challenge, and
 * `{url}?ott=<token>#code_verifier=<verifier>`. The launcher imports this module (and PKCE with it) when a web view
 * first opens, so a game that never opens one downloads none of it at start-up; the `<script>` bundle loads it with
 * the web view's code (`game-campaign.webview.js`, scripts/entries.mjs). It imports nothing the launcher's own
 * module does (the relay caller comes in as an argument, the route is repeated), so no code is shared between this
 * chunk and the entry.
 * @see DESIGN section 7
 */
import type { PlatformCrypto } from '../platform.js';
import type { RelayCall } from '../relay/client-request.js';
import type { RelayWebviewToken } from '../relay/protocol.js';
import type { WebViewOpenOptions } from './launcher.js';
import { createPkcePair } from './pkce.js';

/** `RELAY_ROUTES.webviewToken` of core/relay/routes.ts, repeated rather than imported (a test proves them equal). */
export const WEBVIEW_TOKEN_ROUTE = '/webview/ott';

/**
 * Makes a PKCE pair, gets a one-time token bound to its challenge from the relay (`POST /webview/ott` through
 * `call`), and returns the URL to open. The verifier travels only in the URL's fragment, which browsers never send to
 * a server.
 */
export async function webViewUrl(crypto: PlatformCrypto, call: <T>(call: RelayCall) => Promise<T>, request: Omit<WebViewOpenOptions, 'title'>): Promise<string> {
  const { codeVerifier, codeChallenge } = await createPkcePair(crypto);
  const { url, ott } = await call<RelayWebviewToken>({ method: 'POST', path: WEBVIEW_TOKEN_ROUTE, body: { ...request, codeChallenge }, answer: 'OneTimeToken' });
  // assumed: a fragment on the relay's URL is replaced; `&ott=` when the URL already has a query.
  const base = url.split('#')[0]!;
  return `${base}${base.includes('?') ? '&' : '?'}ott=${encodeURIComponent(ott)}#code_verifier=${codeVerifier}`;
}
