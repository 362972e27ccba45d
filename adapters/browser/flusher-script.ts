/**
 * The tracker's flusher in the `<script>` bundle: where the tracker imports `core/tracker/flusher.js` lazily, the
 * IIFE build puts this module (scripts/iife-siblings.mjs). While a tracker starts up, it loads
 * `game-campaign.flusher.js` (global `GameCampaignFlusher`) from next to the IIFE, as the ESM build loads the same
 * module as a chunk of the game's bundle; nothing is sent before start-up is done anyway.
 * @see ./sibling-script.ts, docs/guides/browser.md
 */
import type * as Flusher from '../../core/tracker/flusher.js';
import { siblingScript } from './sibling-script.js';

/** {@link Flusher.flusherCode}: the code of `game-campaign.flusher.js`, loaded once on first use. */
export const flusherCode: typeof Flusher.flusherCode = siblingScript<Flusher.FlusherCode>('game-campaign.flusher.js', 'GameCampaignFlusher');
