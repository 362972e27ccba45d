/**
 * What `game-campaign.webview.js`, the `<script>` bundle's web view sibling (global `GameCampaignWebView`), holds:
 * the overlay and window code (./webview.ts) and the web view's address with PKCE (core/webview/webview-url.ts), the two parts of opening a web view
 * that the ESM build imports lazily. ./webview-script.ts loads it on the first `open()`.
 * @see scripts/entries.mjs (IIFE_SIBLINGS)
 */
export { createBrowserWebView } from './webview.js';
export { webViewUrl } from '../../core/webview/webview-url.js';
