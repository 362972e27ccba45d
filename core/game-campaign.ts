/**
 * The game-client facade: everything a game does with the SDK, built from one {@link Platform}. Each adapter's
 * `createGameCampaign(options)` is this function with its platform filled in.
 * @see DESIGN section 3
 */
import { CampaignClient } from './client/campaign-client.js';
import type { Campaigns } from './client/campaigns.js';
import type { Creators } from './client/creators.js';
import type { TransportOptions } from './http/transport.js';
import type { Platform } from './platform.js';
import type { RelayTarget } from './relay/sender.js';
import type { PlaytimeTrackerOptions } from './tracker/options.js';
import { PlaytimeTracker } from './tracker/tracker.js';

/** Tracker settings a game may tune; the platform, user and relay come from the facade's own options. */
export type GameTrackerOptions = Omit<PlaytimeTrackerOptions, 'platform' | 'userId' | 'relay'>;

/** Options of {@link createGameCampaign}. */
export interface GameCampaignOptions extends Omit<TransportOptions, 'fetch'> {
  /** The runtime (an adapter supplies it). */
  platform: Platform;
  /** The Client key, `<CLIENT_KEY_ID>:<CLIENT_SECRET>`: read-only, safe to ship in a game. */
  clientKey: string;
  /** The game server's relay, which holds the Server key (playtime, boosts, web view tokens). */
  relay: RelayTarget;
  /** The player, as the game server's `authenticate` knows them. */
  userId: string;
  /** Tracker defaults and timings. */
  tracker?: GameTrackerOptions;
}

/** What {@link createGameCampaign} returns: one object per player session of the game. */
export interface GameCampaign {
  /** Campaign reads (Client API). */
  readonly campaigns: Campaigns;
  /** Creator reads and search (Client API). */
  readonly creators: Creators;
  /** The offline playtime tracker. */
  readonly tracker: PlaytimeTracker;
  /** Ends the running session, stops timers and listeners. The queue stays in storage for the next start. */
  dispose(): Promise<void>;
}

/**
 * Builds the facade on `options.platform`. API reads go through the platform's fetch with the Client key;
 * everything that needs the Server key goes through the relay.
 * @throws TypeError for a malformed Client key; ValidationError for a bad userId, relay url or tracker option
 * @example
 * ```ts
 * const gc = createGameCampaign({ platform, clientKey: 'ck_key:secret', relay: { url: '/campaign' }, userId: 'player-1' });
 * gc.tracker.start({ campaignId: 'spring-event' });
 * ```
 */
export function createGameCampaign(options: GameCampaignOptions): GameCampaign {
  const { platform, clientKey, relay, userId, tracker: trackerOptions, ...transport } = options;
  const client = new CampaignClient({ ...transport, clientKey, fetch: platform.fetch });
  const tracker = new PlaytimeTracker({ ...trackerOptions, platform, userId, relay });
  return {
    campaigns: client.campaigns,
    creators: client.creators,
    tracker,
    dispose: () => tracker.dispose(),
  };
}
