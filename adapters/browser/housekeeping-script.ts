/**
 * The tracker's start-up housekeeping in the `<script>` bundle: where the tracker imports
 * `core/tracker/housekeeping.js` lazily, the IIFE build puts this module (scripts/iife-siblings.mjs). When
 * something other than the player's own queue is stored (0.1.0's shared queue, a crashed session, another
 * player's data), the tracker loads `game-campaign.housekeeping.js` (global `GameCampaignHousekeeping`) from
 * next to the IIFE, as the ESM build loads the same module as a chunk of the game's bundle.
 * @see ./sibling-script.ts, docs/guides/browser.md
 */
import type * as Housekeeping from '../../core/tracker/housekeeping.js';
import { siblingScript } from './sibling-script.js';

/** {@link Housekeeping.housekeepingCode}: the functions of `game-campaign.housekeeping.js`, loaded once on first use. */
export const housekeepingCode: typeof Housekeeping.housekeepingCode = siblingScript<Housekeeping.Housekeeping>('game-campaign.housekeeping.js', 'GameCampaignHousekeeping');
