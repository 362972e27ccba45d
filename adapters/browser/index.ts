/**
 * `game-campaign-sdk/browser`: the SDK for a web page (HTML5 games, Unity WebGL and Cocos web builds), and the
 * source of the `<script>` bundle (global `GameCampaign`).
 * @packageDocumentation
 */
import { gameCampaignOn, type GameCampaign, type GameCampaignOptions } from '../../core/game-campaign.js';
import { gameStorageKey } from '../../core/tracker/game-namespace.js';
import { createBrowserPlatform, type BrowserPlatformOptions } from './platform.js';
import { sharedDatabase } from './shared-database.js';

/** Options of the browser {@link createGameCampaign}: the core facade's, with browser settings instead of a platform. */
export interface BrowserGameCampaignOptions extends Omit<GameCampaignOptions, 'platform'> {
  /**
   * Storage, web view, lease and error settings of the page's platform. @defaultValue IndexedDB (the database
   * `game-campaign.<CLIENT_KEY_ID>`), iframe overlay
   */
  browser?: BrowserPlatformOptions;
}

/**
 * Everything a web game does with the SDK (reads, playtime tracker, and what the core facade offers), on this
 * page's IndexedDB, lifecycle, Web Locks, WebCrypto and fetch. The game's data lives in a database of its own,
 * named by its Client key's id (`game-campaign.<CLIENT_KEY_ID>`, unless `browser.dbName`, `browser.storage` or
 * `tracker.storageKey` says otherwise); what the release before kept in the database every game shared
 * (`game-campaign`) is moved into it on first start.
 * @throws TypeError for a malformed Client key; ValidationError for a bad userId, relay url or tracker option
 * @example
 * ```ts
 * const gc = createGameCampaign({ clientKey: 'ck_key:secret', relay: { url: '/campaign' }, userId: 'player-1' });
 * gc.tracker.start({ campaignId: 'spring-event' });
 * gc.tracker.on('error', (event) => console.warn(event.kind, event.error));
 * ```
 */
export function createGameCampaign(options: BrowserGameCampaignOptions): GameCampaign {
  // From JavaScript with no options at all: what {} gets (the missing Client key named), not a destructuring TypeError.
  const { browser = {}, ...rest } = options || ({} as BrowserGameCampaignOptions);
  // assumed: a game that names its store (dbName, storage) or its storageKey keeps that: the move, if any, is
  // within that store (the core facade's default).
  const own = rest.tracker?.storageKey === undefined && !browser.dbName && !browser.storage;
  const platform = createBrowserPlatform(own ? { ...browser, dbName: gameStorageKey(rest.clientKey) } : browser);
  return gameCampaignOn({ ...rest, platform }, own ? sharedDatabase(platform, browser) : undefined);
}

export { createBrowserPlatform, type BrowserPlatform, type BrowserPlatformOptions } from './platform.js';
export { pageExit } from '../../core/tracker/page-exit.js';
export { createIdbStorage, StorageUnavailableError, type BrowserStorage, type IdbStorageOptions } from './storage.js';
export { WEBVIEW_CLOSE_MESSAGE, type BrowserWebViewOptions } from './webview-options.js';
export type { GameCampaign, GameCampaignOptions, GameTrackerOptions } from '../../core/game-campaign.js';
export { CampaignClient, type CampaignClientOptions } from '../../core/client/campaign-client.js';
export * from '../../core/tracker/index.js';
export * from '../../core/http/errors.js';
export type { Environment } from '../../core/http/environment.js';
export type { FetchLike, KeyValueStorage, Lifecycle, NetworkStatus, Platform, PlatformCrypto, TrackerPageExit, WebViewHandle } from '../../core/platform.js';
export type * from '../../core/types.js';
