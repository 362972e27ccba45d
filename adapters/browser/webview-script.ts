/**
 * The web view of the `<script>` bundle: where the ESM build imports `./webview.js` (the platform) and
 * `core/webview/open-page.js` (the launcher) lazily, the IIFE build puts this module (scripts/iife-siblings.mjs).
 * When a web view first opens, it loads `game-campaign.webview.js` (./webview-sibling.ts: the overlay and window
 * code, and the code of opening one with PKCE; global `GameCampaignWebView`) from next to the IIFE, as the ESM build
 * loads the same modules as chunks of the game's bundle. A failed load rejects `open()` before any token is asked
 * for; the next `open()` tries again.
 * @see ./sibling-script.ts, docs/guides/browser.md
 */
import { siblingScript } from './sibling-script.js';
import type * as Sibling from './webview-sibling.js';

const load = siblingScript<typeof Sibling>('game-campaign.webview.js', 'GameCampaignWebView');

/** {@link Sibling.createBrowserWebView}, its code loaded when the first web view opens. */
export const createBrowserWebView: typeof Sibling.createBrowserWebView = (window, options) => async (url, open) => (await load()).createBrowserWebView(window, options)(url, open);

/** {@link Sibling.openPage}, its code loaded when the first web view opens. */
export const openPage: typeof Sibling.openPage = async (state, options, closes) => (await load()).openPage(state, options, closes);
