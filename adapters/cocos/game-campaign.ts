/**
 * `createGameCampaign` for Cocos Creator: the core facade on {@link createCocosPlatform}.
 * @see DESIGN section 3
 */
import { createGameCampaign as createCoreGameCampaign, type GameCampaign, type GameCampaignOptions } from '../../core/game-campaign.js';
import { invalid } from '../../core/http/request-validation.js';
import { createCocosPlatform, type CocosPlatform } from './platform.js';
import type { CocosPlatformOptions } from './types.js';

/** Options of the Cocos {@link createGameCampaign}: the facade's, with the `cc` objects instead of a platform. */
export interface CocosGameCampaignOptions extends Omit<GameCampaignOptions, 'platform'>, CocosPlatformOptions {}

/**
 * Builds the SDK for a Cocos game. Call it once the engine has started (in a component's `start()`).
 * @throws TypeError for a malformed Client key or missing `cc` objects; ValidationError for a bad userId, relay url (a
 * `/path` outside a web build) or tracker option
 * @example
 * ```ts
 * import { sys, game, Game } from 'cc';
 * import { createGameCampaign } from 'game-campaign-sdk/cocos';
 * const gc = createGameCampaign({ cc: { sys, game, Game }, wx: (globalThis as any).wx, clientKey, relay: { url: 'https://game.example/campaign' }, userId });
 * gc.tracker.start({ campaignId: 'spring-event' });
 * ```
 */
export function createGameCampaign(options: CocosGameCampaignOptions): GameCampaign & { platform: CocosPlatform } {
  // From JavaScript with no options at all: what {} gets (`cc` named), not a destructuring TypeError.
  const { cc: engine, wx, webView, fetch, XMLHttpRequest, getRandomValues, onStorageError, ...facade } = options || ({} as CocosGameCampaignOptions);
  const platform = createCocosPlatform({ cc: engine, wx, webView, fetch, XMLHttpRequest, getRandomValues, onStorageError });
  // A native or mini-game build has no page to resolve a `/path` relay URL against: every send would fail.
  if (platform.runtime != 'web' && facade.relay?.url?.[0] == '/') invalid([{ path: 'options.relay.url', message: `must be https://… in a ${platform.runtime} build (no page to resolve a /path)` }]);
  return Object.assign(createCoreGameCampaign({ ...facade, platform }), { platform });
}
