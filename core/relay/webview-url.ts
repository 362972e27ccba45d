/**
 * `createRelay`'s check of its `webviewUrl`, the page every player's game opens as `{url}?ott=<token>#code_verifier=<verifier>`
 * (core/webview/open-page.ts).
 */
import { WEB_PAGE_PATTERN } from '../schema/web-page.js';
import { isLocalHost } from './local-host.js';

/** What `http:` is kept for, in the error that refuses it elsewhere (./local-host.ts). */
const LOCAL_HOSTS = 'localhost, *.localhost, 127.0.0.0/8, [::1], 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10, a name without a dot, or *.local, *.test, *.internal, *.home.arpa';

/**
 * Throws a TypeError naming what is wrong with `webviewUrl` (`isDefault`: it is `${server.baseUrl}/webview`):
 * - not an absolute http(s) URL, or one the URL parser refuses: clients refuse to open it (a relative one would open
 *   on the game's own origin, a `javascript:` one would run there);
 * - credentials (`user:password@`): the relay hands them to every player (shown as `https://…@host`, never them);
 * - a fragment: the SDK replaces it with its own `#code_verifier=...`, so the page would never see it;
 * - `http:` on a host that is not local: anyone on a player's network (a café's Wi-Fi) reads the one-time token in
 *   the request line and rewrites the page to read the verifier from the fragment, and the player's web view session
 *   is theirs. Found by p41-client; the check is the relay's, so no game client carries it.
 * The address is shown up to its query.
 */
export function checkWebviewUrl(webviewUrl: string, isDefault: boolean): void {
  let url: URL | undefined;
  try {
    url = typeof webviewUrl === 'string' && WEB_PAGE_PATTERN.test(webviewUrl) ? new URL(webviewUrl) : undefined;
  } catch {
    // The URL parser's refusal (a space in the host, a port past 65535): as any other address clients cannot open.
  }
  if (!url) throw new TypeError(`webviewUrl must be an absolute http(s) URL, got ${JSON.stringify(webviewUrl)}`);
  if (url.username || url.password) {
    throw new TypeError(`webviewUrl ${url.protocol}//…@${url.host} holds credentials (user:password@), which every player would be handed: leave them out`);
  }
  const shown = `webviewUrl ${webviewUrl.split(/[?#]/)[0]}${isDefault ? ' (the default: server.baseUrl + /webview, give `webviewUrl`)' : ''}`;
  // Looked for in the text: an empty fragment (`.../webview#`) leaves `url.hash` empty.
  if (webviewUrl.includes('#')) throw new TypeError(`${shown} has a fragment (#...): the SDK adds its own (#code_verifier=...), leave it out`);
  if (url.protocol === 'http:' && !isLocalHost(url.hostname)) {
    throw new TypeError(
      `${shown} is http: on a host that is not local: anyone on a player's network reads the one-time token it is opened with and can take over their web view session; use https: (http: only on ${LOCAL_HOSTS})`,
    );
  }
}
