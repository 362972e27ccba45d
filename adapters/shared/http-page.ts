/**
 * The check every web view that shows a page in the game's own document or window makes before it shows one (the
 * browser's overlay and window, Cocos's `WebView` component and `sys.openURL` on the web). Imported only by those
 * lazily loaded web view modules, never by an entry, so it costs nothing at start-up.
 * @see docs/decisions.md, row "Web view address: http(s) only"
 */

import { WEB_PAGE_PATTERN } from '../../core/schema/web-page.js';

/**
 * `page` when it is an absolute http(s) address (the relay's rule, core/schema/web-page.ts). The error names the
 * address up to its query, never the one-time token or the verifier after it.
 * @throws TypeError for another scheme or a relative address; nothing is shown
 */
export function httpPage(page: string): string {
  if (!WEB_PAGE_PATTERN.test(page)) throw new TypeError(`The web view address is not http(s): ${page.split('?')[0]} (the relay's webviewUrl)`);
  return page;
}
