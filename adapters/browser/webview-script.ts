/**
 * The web view of the `<script>` bundle: where the platform imports `./webview.js` lazily, the IIFE build puts
 * this module (scripts/iife-siblings.mjs). When a web view first opens, it loads `game-campaign.webview.js` (the
 * overlay and window code of ./webview.ts, global `GameCampaignWebView`) from next to the IIFE, as the ESM build
 * loads the same module as a chunk of the game's bundle.
 * @see ./sibling-script.ts, docs/guides/browser.md
 */
import { siblingScript } from './sibling-script.js';
import type * as WebView from './webview.js';

const load = siblingScript<typeof WebView>('game-campaign.webview.js', 'GameCampaignWebView');

/** {@link WebView.createBrowserWebView}, its code loaded when the first web view opens. */
export const createBrowserWebView: typeof WebView.createBrowserWebView = (window, options) => async (url, open) => (await load()).createBrowserWebView(window, options)(url, open);
