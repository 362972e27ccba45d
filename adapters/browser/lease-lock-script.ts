/**
 * The cross-tab lease of the `<script>` bundle: where ./lock.ts imports ./lease-lock-import.ts, the IIFE build puts
 * this module (scripts/iife-siblings.mjs). In a browser without Web Locks the first lock loads
 * `game-campaign.lease-lock.js` (./lease-lock.ts, global `GameCampaignLeaseLock`) from next to the IIFE, as the
 * ESM build loads the same module as a chunk of the game's bundle; browsers with Web Locks never load it.
 * @see ./sibling-script.ts, docs/guides/browser.md
 */
import type * as LeaseLock from './lease-lock.js';
import { siblingScript } from './sibling-script.js';

/** The lease's module, as ./lease-lock-import.ts resolves it, from its sibling file. */
export const importLeaseLock = siblingScript<typeof LeaseLock>('game-campaign.lease-lock.js', 'GameCampaignLeaseLock');
