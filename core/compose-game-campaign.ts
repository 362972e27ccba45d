/**
 * The game-client facade and how it is put together from one {@link Platform}. The creator picker's code comes in as
 * an argument: ./game-campaign.ts passes the picker (every entry a bundler can tree-shake or split), while React
 * Native's entry leaves it to an entry of its own that the app passes in, since Metro keeps everything an entry
 * reaches (docs/decisions.md, "React Native entry: measured as Metro bundles it").
 * @see DESIGN section 3
 */
import { createBoost, type Boost } from './boost/boost.js';
import { CampaignClient } from './client/campaign-client.js';
import type { Campaigns } from './client/campaigns.js';
import { Creators } from './client/creators.js';
import { validated } from './http/request-validation.js';
import type { TransportOptions } from './http/transport.js';
import type { CreatorPicker, CreatorPickerFactory, CreatorPickerOptions, CreatorPickerSource } from './picker/picker.js';
import type { Platform } from './platform.js';
import type { RelayTarget } from './relay/sender.js';
import { Id } from './schema/rules.js';
import { gameStorageKey, movedStorage, type SharedNamespaceStore } from './tracker/game-namespace.js';
import type { PlaytimeTrackerOptions } from './tracker/options.js';
import { PlaytimeTracker } from './tracker/tracker.js';
import { WebViewLauncher } from './webview/launcher.js';

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
  /** Opens the campaign web view (PKCE + a one-time token from the relay). Its `open()` rejects with a TypeError after `dispose()`. */
  readonly webview: WebViewLauncher;
  /**
   * A headless creator picker for a boost screen: state and events, no UI. It starts loading at once.
   * @throws ValidationError for an empty campaignId; TypeError after `dispose()`
   */
  picker(options: CreatorPickerOptions): CreatorPicker;
  /**
   * Ends the running session, stops timers and listeners, closes the web view and disposes every picker. The
   * queue stays in storage for the next start.
   */
  dispose(): Promise<void>;
}

/**
 * The facade on `options.platform`, with `createPicker` behind `gc.picker(...)`. `shared` finds the store where the
 * release before kept the game's data, for an adapter whose platform keeps it apart (the browser's database of its
 * own); without it, the shared namespace is looked for in the platform's own storage (React Native, Cocos, a custom
 * platform).
 * assumed: an explicit `tracker.storageKey` keeps exactly the layout it had: no namespace, no move.
 */
export function composeGameCampaign(options: GameCampaignOptions, createPicker: CreatorPickerFactory, shared?: () => Promise<SharedNamespaceStore | undefined>): GameCampaign {
  const { platform, clientKey, relay, userId, tracker: trackerOptions } = options;
  // The Client API, the relay calls and the web view read only their own options (TransportOptions, `relay`,
  // `platform`), by name: they take the facade's options as they are (no copy without the others), with the platform's fetch.
  const transport = { ...options, fetch: platform.fetch };
  const client = new CampaignClient(transport);
  const explicit = trackerOptions?.storageKey !== undefined;
  const storageKey = explicit ? trackerOptions.storageKey! : gameStorageKey(clientKey);
  // The tracker's view of the platform: the same object (its prototype: a class-based platform keeps its methods)
  // with the storage that waits for the move.
  const trackerPlatform: Platform = explicit ? platform : ({ __proto__: platform, storage: movedStorage(platform, storageKey, shared) } as unknown as Platform);
  let disposed: unknown;
  /**
   * After `dispose()`, a TypeError for each call that would reach the relay or start something nothing disposes (a
   * boost change, a web view, a picker), asked when the call is made: a method saved before (`const { change } =
   * gc.boost`, `gc.webview.open.bind(gc.webview)`) is refused too, which replacing the facade's methods missed. One
   * message for all (the stack names the call): a name per call cost 28 B more. Else the platform's refusal of a web
   * view, for the launcher (its `webViewUnavailable`, whose answer only it reads).
   */
  const refused = () => {
    if (disposed) throw new TypeError('gc: called after dispose()');
    return platform.webViewUnavailable?.();
  };
  const tracker = new PlaytimeTracker({ ...trackerOptions, storageKey, platform: trackerPlatform, userId, relay });
  // The relay calls take the transport's timing (timeoutMs, maxRetries, random) and ignore the rest.
  const boost = createBoost(transport, client.sponsors, userId, refused);
  // The launcher asks `webViewUnavailable` before anything else (no token spent): after dispose, it throws.
  const webview = new WebViewLauncher({ ...options, platform: { __proto__: platform, webViewUnavailable: refused } as unknown as Platform });
  const source: CreatorPickerSource = {
    campaigns: client.campaigns,
    boost,
    // assumed: picker searches are not retried (the next keystroke is the retry, and a late retry would be stale),
    // and a newer search aborts the one in flight through the per-call signal.
    search: (query, signal) => client.creators.search(query, { signal, maxRetries: 0 }),
    now: () => platform.now(),
    live: new Set(),
  };
  const gc: GameCampaign = {
    campaigns: client.campaigns,
    creators: client.creators,
    tracker,
    boost,
    webview,
    picker: (pickerOptions) => (refused(), createPicker(source, { ...pickerOptions, campaignId: validated(Id, pickerOptions.campaignId, 'campaignId') })),
    dispose() {
      // A picker made now would load through the disposed SDK and nothing would dispose it, a web view opened now would
      // spend a token on a page nothing closes, a boost change would still change the player's boost: refused, as
      // `tracker.start()` is (`open()` and `change()` reject).
      disposed = 1;
      webview.close();
      for (const picker of source.live!) picker.dispose();
      return tracker.dispose();
    },
  };
  return gc;
}
