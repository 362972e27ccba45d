/**
 * `createGameCampaign`: the game-client facade with every part, the creator picker included (its code is imported
 * with the first picker, a chunk a bundler splits off). Each adapter's `createGameCampaign(options)` is this function
 * with its platform filled in.
 * @see DESIGN section 3
 */
import { composeGameCampaign, type GameCampaign, type GameCampaignOptions } from './compose-game-campaign.js';
import { createCreatorPicker } from './picker/picker.js';
import type { SharedNamespaceStore } from './tracker/game-namespace.js';

export type { GameCampaign, GameCampaignOptions, GameTrackerOptions } from './compose-game-campaign.js';

/**
 * Builds the facade on `options.platform`. API reads go through the platform's fetch with the Client key;
 * everything that needs the Server key goes through the relay.
 * @throws TypeError for a malformed Client key or no platform; ValidationError for a bad userId, relay url or tracker option
 * @example
 * ```ts
 * const gc = createGameCampaign({ platform, clientKey: 'ck_key:secret', relay: { url: '/campaign' }, userId: 'player-1' });
 * gc.tracker.start({ campaignId: 'spring-event' });
 * await gc.webview.open({ campaignId: 'spring-event' });
 * const picker = gc.picker({ campaignId: 'spring-event' });
 * ```
 */
export function createGameCampaign(options: GameCampaignOptions): GameCampaign {
  // A game written in JavaScript that imports this entry where its adapter's was meant otherwise meets
  // "Cannot read properties of undefined (reading 'fetch')".
  if (!options?.platform) throw new TypeError("createGameCampaign from 'game-campaign-sdk' needs { platform }: import it from your adapter's entry instead (game-campaign-sdk/browser, /cocos or /react-native), which fills it in");
  return gameCampaignOn(options);
}

/**
 * {@link createGameCampaign}, for an adapter whose platform keeps the game's data apart from where the release
 * before kept it (the browser's database of its own): `shared` finds that store. Without it, the shared
 * namespace is looked for in the platform's own storage (React Native, Cocos, a custom platform).
 */
export function gameCampaignOn(options: GameCampaignOptions, shared?: () => Promise<SharedNamespaceStore | undefined>): GameCampaign {
  return composeGameCampaign(options, createCreatorPicker, shared);
}
