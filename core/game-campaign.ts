/**
 * The game-client facade: everything a game does with the SDK, built from one {@link Platform}. Each adapter's
 * `createGameCampaign(options)` is this function with its platform filled in.
 * @see DESIGN section 3
 */
import { createBoost, type Boost } from './boost/boost.js';
import { CampaignClient } from './client/campaign-client.js';
import type { Campaigns } from './client/campaigns.js';
import { Creators } from './client/creators.js';
import { validated } from './http/request-validation.js';
import type { TransportOptions } from './http/transport.js';
import { createCreatorPicker, type CreatorPicker, type CreatorPickerOptions, type CreatorPickerSource } from './picker/picker.js';
import type { Platform } from './platform.js';
import type { RelayTarget } from './relay/sender.js';
import { Id } from './schema/rules.js';
import { gameStorageKey, movedStorage, type SharedNamespaceStore } from './tracker/game-namespace.js';
import type { PlaytimeTrackerOptions } from './tracker/options.js';
import { PlaytimeTracker } from './tracker/tracker.js';
import { WebViewLauncher } from './webview/launcher.js';
import { withoutKeys } from './without-keys.js';

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
  /** The player's boost: change it through the relay, read the current one. */
  readonly boost: Boost;
  /** Opens the campaign web view (PKCE + a one-time token from the relay). */
  readonly webview: WebViewLauncher;
  /**
   * A headless creator picker for a boost screen: state and events, no UI. It starts loading at once.
   * @throws ValidationError for an empty campaignId
   */
  picker(options: CreatorPickerOptions): CreatorPicker;
  /**
   * Ends the running session, stops timers and listeners, closes the web view and disposes every picker. The
   * queue stays in storage for the next start.
   */
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
 * await gc.webview.open({ campaignId: 'spring-event' });
 * const picker = gc.picker({ campaignId: 'spring-event' });
 * ```
 */
export function createGameCampaign(options: GameCampaignOptions): GameCampaign {
  return gameCampaignOn(options);
}

/**
 * {@link createGameCampaign}, for an adapter whose platform keeps the game's data apart from where the release
 * before kept it (the browser's database of its own): `shared` finds that store. Without it, the shared
 * namespace is looked for in the platform's own storage (React Native, Cocos, a custom platform).
 * assumed: an explicit `tracker.storageKey` keeps exactly the layout it had: no namespace, no move.
 */
export function gameCampaignOn(options: GameCampaignOptions, shared?: () => Promise<SharedNamespaceStore | undefined>): GameCampaign {
  const { platform, clientKey, relay, userId, tracker: trackerOptions } = options;
  const transport = withoutKeys(options, 'platform', 'clientKey', 'relay', 'userId', 'tracker');
  const client = new CampaignClient({ ...transport, clientKey, fetch: platform.fetch });
  const explicit = trackerOptions?.storageKey !== undefined;
  const storageKey = explicit ? trackerOptions.storageKey! : gameStorageKey(clientKey);
  // The tracker's view of the platform: the same object (through its prototype: a class-based platform keeps its
  // methods) with the storage that waits for the move.
  const trackerPlatform: Platform = explicit ? platform : Object.assign(Object.create(platform) as Platform, { storage: movedStorage(platform.storage, storageKey, shared ?? (async () => platform)) });
  const tracker = new PlaytimeTracker({ ...trackerOptions, storageKey, platform: trackerPlatform, userId, relay });
  // The relay calls take the transport's timing (timeoutMs, maxRetries, random) and ignore the rest.
  const boost = createBoost({ ...transport, relay, fetch: platform.fetch }, client.sponsors, userId);
  const webview = new WebViewLauncher({ ...transport, relay, platform });
  const source: CreatorPickerSource = {
    campaigns: client.campaigns,
    boost,
    // assumed: picker searches are not retried (the next keystroke is the retry, and a late retry would be stale),
    // and a newer search aborts the one in flight through the per-call signal.
    search: (query, signal) => client.creators.search(query, { signal, maxRetries: 0 }),
    now: () => platform.now(),
    live: new Set(),
  };
  return {
    campaigns: client.campaigns,
    creators: client.creators,
    tracker,
    boost,
    webview,
    picker: (pickerOptions) => createCreatorPicker(source, { ...pickerOptions, campaignId: validated(Id, pickerOptions.campaignId, 'campaignId') }),
    dispose() {
      webview.close();
      for (const picker of source.live!) picker.dispose();
      return tracker.dispose();
    },
  };
}
