/**
 * `game-campaign-sdk/react-native`: the SDK for React Native and Expo. Modules are passed in, never
 * imported, so every React Native package stays an optional peer dependency.
 * @packageDocumentation
 */
export { createGameCampaign, type ReactNativeGameCampaign, type ReactNativeGameCampaignOptions } from './game-campaign.js';
export { createReactNativePlatform, type ReactNativePlatform } from './platform.js';
export { createWebViewHost, WEBVIEW_CLOSE_MESSAGE, type BackHandlerLike, type ReactLike, type WebViewHost } from './web-view.js';
export type { AsyncStorageShape } from './storage.js';
export type { AppStateLike, AsyncStorageLike, AsyncStorageModule, ExpoCryptoLike, LinkingLike, NetInfoLike, RandomValuesFill, ReactNativeModules, ReactNativePlatformOptions, WebViewOpener } from './types.js';
export { CryptoUnavailableError, WebViewUnavailableError } from '../shared/errors.js';
export type { GetRandomValues } from '../shared/crypto-parts.js';
export type { GameCampaign, GameCampaignOptions } from '../../core/compose-game-campaign.js';
export type { CreatorPicker, CreatorPickerFactory, CreatorPickerOptions, CreatorPickerState } from '../../core/picker/picker.js';
export type { WebViewHandle } from '../../core/platform.js';
