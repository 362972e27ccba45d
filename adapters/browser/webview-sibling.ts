/**
 * What `game-campaign.webview.js`, the `<script>` bundle's web view sibling (global `GameCampaignWebView`), holds:
 * the overlay and window code (./webview.ts) and the code of opening a web view with PKCE (core/webview/open-page.ts),
 * the two parts of opening a web view that the ESM build imports lazily. ./webview-script.ts loads it on the first
 * `open()`.
 * @see scripts/entries.mjs (IIFE_SIBLINGS)
 */
export { createBrowserWebView } from './webview.js';
export { openPage } from '../../core/webview/open-page.js';
