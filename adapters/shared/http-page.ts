/**
 * The check every web view that shows a page in the game's own document or window makes before it shows one (the
 * browser's overlay and window, Cocos's `WebView` component and `sys.openURL` on the web). Imported only by those
 * lazily loaded web view modules, never by an entry, so it costs nothing at start-up.
 * @see docs/decisions.md, row "Web view address: http(s) only"
 */

/**
 * `page` when it is an http(s) address. Any other comes from a relay's misconfigured or hostile answer: a
 * `javascript:` one runs in the game's origin (an iframe's or a new window's `about:blank` is the game's), a
 * relative one (resolved against the game's page) opens on the game's own origin, where the iframe's sandbox is
 * void. The error names the address up to its query, never the one-time token or the verifier after it.
 * @throws TypeError for another scheme or a relative address; nothing is shown
 */
export function httpPage(page: string): string {
  if (!/^https?:/i.test(page)) throw new TypeError(`The web view address is not http(s): ${page.split('?')[0]} (the relay's webviewUrl)`);
  return page;
}
