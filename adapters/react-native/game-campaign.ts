/**
 * `createGameCampaign` for React Native: the core facade on {@link createReactNativePlatform}.
 * @see DESIGN section 3
 */
import { createGameCampaign as createCoreGameCampaign, type GameCampaign, type GameCampaignOptions } from '../../core/game-campaign.js';
import { createReactNativePlatform, type ReactNativePlatform } from './platform.js';
import { withoutKeys } from '../../core/without-keys.js';
import type { ReactNativePlatformOptions } from './types.js';

/** Options of the React Native {@link createGameCampaign}: the facade's, with the modules instead of a platform. */
export interface ReactNativeGameCampaignOptions extends Omit<GameCampaignOptions, 'platform'>, Omit<ReactNativePlatformOptions, 'storageKey'> {}

/**
 * Builds the SDK for a React Native or Expo app.
 * @throws {@link CryptoUnavailableError} when no secure random source was given or installed; TypeError for
 * missing modules or a malformed Client key; ValidationError for a bad userId, relay url or tracker option
 * @example
 * ```ts
 * import 'react-native-get-random-values';
 * import * as AsyncStorage from '@react-native-async-storage/async-storage';
 * import NetInfo from '@react-native-community/netinfo';
 * import { AppState, Linking } from 'react-native';
 * import { createGameCampaign } from 'game-campaign-sdk/react-native';
 * const gc = createGameCampaign({ clientKey, relay: { url: 'https://game.example/campaign' }, userId, modules: { AsyncStorage, AppState, NetInfo, Linking } });
 * ```
 */
export function createGameCampaign(options: ReactNativeGameCampaignOptions): GameCampaign & { platform: ReactNativePlatform } {
  const { modules, fetch, storageName } = options;
  const facade = withoutKeys(options, 'modules', 'fetch', 'storageName');
  const platform = createReactNativePlatform({ modules, fetch, storageName, storageKey: facade.tracker?.storageKey });
  return Object.assign(createCoreGameCampaign({ ...facade, platform }), { platform });
}
