/**
 * Types of the `<script>` bundle `game-campaign.iife.js`: the global `GameCampaign` holds exactly the exports of
 * `game-campaign-sdk/browser`, whose declarations (`browser.d.ts`) sit next to this file in `dist/`.
 * Use it with `/// <reference path="node_modules/game-campaign-sdk/dist/game-campaign.iife.d.ts" />` or by listing
 * it in your tsconfig's `files`. Source: `types/game-campaign.iife.d.ts`, copied to `dist/` by the build.
 */
import type * as GameCampaignBrowser from './browser.js';

declare global {
  /** The Game Campaign SDK loaded by `<script src="game-campaign.iife.js">`: `createGameCampaign`, `createBrowserPlatform`, the error classes, … */
  const GameCampaign: typeof GameCampaignBrowser;
  interface Window {
    /** The Game Campaign SDK loaded by `<script src="game-campaign.iife.js">`. */
    GameCampaign: typeof GameCampaignBrowser;
  }
}

export {};
