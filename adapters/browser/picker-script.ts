/**
 * The creator picker's code in the `<script>` bundle: where the ESM build imports `core/picker/picker-core.js`
 * lazily (core/picker/picker-import.ts), the IIFE build puts this module (scripts/iife-siblings.mjs). The first picker
 * loads `game-campaign.picker.js` (core/picker/picker-core.ts, global `GameCampaignPicker`) from next to the IIFE, as
 * the ESM build loads the same module as a chunk of the game's bundle. A failed load is the picker's `state.error`;
 * its next call tries again.
 * @see ./sibling-script.ts, docs/guides/browser.md
 */
import type * as PickerCore from '../../core/picker/picker-core.js';
import { siblingScript } from './sibling-script.js';

/** The picker's code, loaded once on first use. */
export const importPickerCore = siblingScript<typeof PickerCore>('game-campaign.picker.js', 'GameCampaignPicker');
