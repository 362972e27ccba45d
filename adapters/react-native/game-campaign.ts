/**
 * `createGameCampaign` for React Native: the core facade on the React Native platform, the creator picker
 * passed in from `game-campaign-sdk/react-native/picker` when the game shows one (Metro keeps everything an entry
 * reaches, so the picker is an entry of its own).
 * @see DESIGN section 3
 */
import { composeGameCampaign, type GameCampaign, type GameCampaignOptions } from '../../core/compose-game-campaign.js';
import type { CreatorPickerFactory } from '../../core/picker/picker.js';
import { gameStorageKey, SHARED_NAMESPACE } from '../../core/tracker/game-namespace.js';
import { reactNativePlatform, type ReactNativePlatform } from './platform.js';
import type { ReactNativePlatformOptions } from './types.js';

/** Options of the React Native {@link createGameCampaign}: the facade's, with the modules instead of a platform. */
export interface ReactNativeGameCampaignOptions extends Omit<GameCampaignOptions, 'platform'>, Omit<ReactNativePlatformOptions, 'storageKey'> {
  /**
   * `creatorPicker` from `game-campaign-sdk/react-native/picker`, for `gc.picker(...)`. Without it `gc.picker` throws
   * a TypeError saying so, and the app carries none of the picker's code.
   */
  picker?: CreatorPickerFactory;
}

/** What the React Native {@link createGameCampaign} returns: the facade, and the platform it runs on. */
export type ReactNativeGameCampaign = GameCampaign & { platform: ReactNativePlatform };

/**
 * How many SDKs not yet disposed each player has in this JavaScript realm, by store and player. Fast Refresh re-runs an
 * edited module but not this package, so it survives an edit: a second SDK for one player then warns, since the first
 * keeps recording (its sessions, continued after a long background, are counted beside the second's). A count, not a
 * set of players: disposing the second of two must not forget the first, which still records (a third then warns too).
 * Keys hold ':', so none is an `Object.prototype` name.
 */
const live: Record<string, number> = {};

/** `gc.picker` of a facade built without `picker`: it refuses, saying why. */
const noPicker = (): never => {
  throw new TypeError("gc.picker: pass createGameCampaign the creatorPicker of 'game-campaign-sdk/react-native/picker'");
};

/**
 * Builds the SDK for a React Native or Expo app. Keep one per player: a second one for a player whose first is not
 * disposed warns (`console.warn`; Fast Refresh re-running the module that made it).
 * @throws {@link CryptoUnavailableError} when no secure random source was given or installed, or the installed one throws; TypeError for
 * missing modules or a malformed Client key; ValidationError for a bad userId, relay url or tracker option
 * @example
 * ```ts
 * import 'react-native-get-random-values';
 * import * as AsyncStorage from '@react-native-async-storage/async-storage';
 * import NetInfo from '@react-native-community/netinfo';
 * import { AppState, Linking } from 'react-native';
 * import { createGameCampaign } from 'game-campaign-sdk/react-native';
 * import { creatorPicker } from 'game-campaign-sdk/react-native/picker'; // only for gc.picker(...)
 * const gc = createGameCampaign({ clientKey, relay: { url: 'https://game.example/campaign' }, userId, modules: { AsyncStorage, AppState, NetInfo, Linking }, picker: creatorPicker });
 * ```
 */
export function createGameCampaign(options: ReactNativeGameCampaignOptions): ReactNativeGameCampaign {
  // From JavaScript with no options at all: what {} gets (`modules.AsyncStorage` named), not a TypeError on `tracker`.
  options ||= {} as ReactNativeGameCampaignOptions;
  const storageKey = options.tracker?.storageKey;
  // What to move out of AsyncStorage 3.x's legacy store: the shared namespace, and the game's own (`game-campaign.<CLIENT_KEY_ID>:`
  // and its `.moved` mark: on AsyncStorage 2.x it is in what 3.x calls the legacy store, so an app updating to 3.x gets
  // it moved too). An explicit storageKey is all there is.
  // The game's storage key (read only after the facade checked the Client key).
  let own: string;
  const platform = reactNativePlatform(options, () => (storageKey !== undefined ? [`${own}:`] : [`${SHARED_NAMESPACE}:`, `${own}:`, `${own}.moved`]));
  // The facade reads its own options by name: `modules`, `storageName` and `picker` are ignored there, and its fetch is the platform's.
  const gc = composeGameCampaign({ ...options, platform }, options.picker ?? noPicker);
  const { dispose } = gc;
  own = storageKey ?? gameStorageKey(options.clientKey);
  // The store as the platform names it (its default written or not is one store), the tracker's storage key (the
  // derived one given explicitly is the same), the player.
  const player = `${options.storageName ?? 'game-campaign'}:${own}:${options.userId}`;
  if (live[player]) console.warn(`createGameCampaign: the SDK of player ${options.userId} is not disposed and still records: dispose() it (guide: Fast Refresh)`);
  live[player] = (live[player] || 0) + 1;
  // What this SDK adds to its player's count: 1 until its first dispose(), so a second call takes nothing off another SDK's.
  let held = 1;
  return Object.assign(gc, { platform, dispose: () => ((live[player]! -= held), (held = 0), dispose()) });
}
