/**
 * Where ./picker.ts gets the picker's code: imported lazily (a chunk of the game's bundle, loaded with the first
 * picker). The `<script>` bundle, which has no chunks, puts `adapters/browser/picker-script.ts` here instead
 * (scripts/iife-siblings.mjs), which loads `game-campaign.picker.js`.
 */
export const importPickerCore = () => import('./picker-core.js');
