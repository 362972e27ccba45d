/**
 * The SHA-256 fallback of the `<script>` bundle: where the adapters import `../shared/sha256.js` lazily, the IIFE
 * build puts this module (scripts/iife-siblings.mjs). On a page without `crypto.subtle` the first hash loads
 * `game-campaign.sha256.js` (../shared/sha256.ts, global `GameCampaignSha256`) from next to the IIFE.
 * @see ./sibling-script.ts, docs/guides/browser.md
 */
import { siblingScript } from './sibling-script.js';

const load = siblingScript<{ sha256: (data: Uint8Array) => Uint8Array }>('game-campaign.sha256.js', 'GameCampaignSha256');

/** SHA-256 of `data`, from the fallback file, loaded once on first use. */
export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return (await load()).sha256(data);
}
