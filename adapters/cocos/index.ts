/**
 * `game-campaign-sdk/cocos`: the SDK for Cocos Creator 3.8 (web, native, WeChat mini-game). The `cc` objects
 * are passed in, never imported, so the package needs no engine to install and touches nothing at import.
 * @packageDocumentation
 */
export { createGameCampaign, type CocosGameCampaignOptions } from './game-campaign.js';
export { createCocosPlatform, WEBVIEW_CLOSE_SCHEME, type CocosPlatform } from './platform.js';
export { createXhrFetch, XhrTimeoutError, type XhrConstructor, type XhrFetchOptions, type XhrLike } from './xhr-fetch.js';
export type { CocosGame, CocosGameClass, CocosModules, CocosPlatformOptions, CocosRuntime, CocosSys, CocosWebView, CocosWebViewFactory, WechatApi } from './types.js';
export { CryptoUnavailableError, RequestBlockedError, StorageUnavailableError, WebViewUnavailableError } from '../shared/errors.js';
export type { GetRandomValues } from '../shared/crypto.js';
export type { GameCampaign, GameCampaignOptions } from '../../core/game-campaign.js';
export type { WebViewHandle } from '../../core/platform.js';
