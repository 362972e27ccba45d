/**
 * `game-campaign-sdk/cocos`: the SDK for Cocos Creator 3.8 (web, native, WeChat mini-game). The `cc` objects
 * are passed in, never imported, so the package needs no engine to install and touches nothing at import.
 * @packageDocumentation
 */
export { createGameCampaign, type CocosGameCampaignOptions } from './game-campaign.js';
export { createCocosPlatform, type CocosPlatform } from './platform.js';
export { createXhrFetch, XhrTimeoutError, type XhrConstructor, type XhrFetchOptions, type XhrLike } from './xhr-fetch.js';
export { WEBVIEW_CLOSE_SCHEME } from './web-view.js';
export type { CocosGame, CocosGameClass, CocosModules, CocosPlatformOptions, CocosRuntime, CocosSys, CocosWebView, CocosWebViewFactory, WechatApi } from './types.js';
export { CryptoUnavailableError, RequestBlockedError, StorageUnavailableError, WebViewUnavailableError } from '../shared/errors.js';
export type { GetRandomValues } from '../shared/crypto.js';
export type { GameCampaign, GameCampaignOptions } from '../../core/game-campaign.js';
export type { WebViewHandle } from '../../core/platform.js';
