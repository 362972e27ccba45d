/**
 * `game-campaign-sdk`: what a game client uses on any runtime.
 * @packageDocumentation
 */
export { CampaignClient, type CampaignClientOptions } from './client/campaign-client.js';
export type { Campaigns } from './client/campaigns.js';
export type { Creators, CreatorSearch } from './client/creators.js';
export type { ClientSponsors } from './client/sponsors.js';
export * from './tracker/index.js';
export * from './http/errors.js';
export { BASE_URLS, type Environment } from './http/environment.js';
export type { LogEntry, TransportOptions, RetryPolicy, ResponseValidator } from './http/transport.js';
export type { Page, PagePromise } from './http/page.js';
export type { FetchLike, KeyValueStorage, Lifecycle, NetworkStatus, Platform, PlatformCrypto, TrackerPageExit } from './platform.js';
export type * from './types.js';
export { createGameCampaign, type GameCampaign, type GameCampaignOptions, type GameTrackerOptions } from './game-campaign.js';
export type { RequestOptions } from './http/transport.js';
export { createPkcePair, createCodeVerifier, codeChallengeOf } from './webview/pkce-lazy.js';
export type { PkcePair } from './webview/pkce.js';
export { WebViewLauncher, type WebViewLauncherOptions, type WebViewOpenOptions } from './webview/launcher.js';
export type { WebViewHandle } from './platform.js';
export type { Boost, BoostChangeRequest } from './boost/boost.js';
export type { CreatorPicker, CreatorPickerOptions, CreatorPickerState } from './picker/picker.js';
