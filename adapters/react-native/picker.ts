/**
 * `game-campaign-sdk/react-native/picker`: the headless creator picker for a React Native game's boost screen. An
 * entry of its own because Metro does not tree-shake: an app that imports it pays for the picker, one that does not
 * pays nothing. Pass it to `createGameCampaign({ ..., picker: creatorPicker })`, then `gc.picker({ campaignId })`.
 * @packageDocumentation
 */
import { createCreatorPicker, type CreatorPickerFactory } from '../../core/picker/picker.js';

/**
 * The picker's code, for `createGameCampaign`'s `picker` option.
 * @example
 * ```ts
 * import { createGameCampaign } from 'game-campaign-sdk/react-native';
 * import { creatorPicker } from 'game-campaign-sdk/react-native/picker';
 * const gc = createGameCampaign({ clientKey, relay, userId, modules: { AsyncStorage, AppState }, picker: creatorPicker });
 * const picker = gc.picker({ campaignId: 'spring-event' });
 * ```
 */
export const creatorPicker: CreatorPickerFactory = createCreatorPicker;

export type { CreatorPicker, CreatorPickerFactory, CreatorPickerOptions, CreatorPickerSource, CreatorPickerState } from '../../core/picker/picker.js';
