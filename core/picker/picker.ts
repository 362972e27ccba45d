/**
 * A headless creator picker: the state a boost screen needs (the campaign and its creators, search as the player
 * types, the current boost, the selection, whether confirming is allowed and the cooldown when it is not), with no
 * UI, so a DOM, React, Cocos or Unity screen renders it. It never throws into the UI: every failure becomes
 * `state.error`, and no promise it starts is left to reject unhandled. Its behaviour is ./picker-core.ts, imported
 * with the first picker (a boost screen opening), so a game downloads none of it at start-up.
 * @see DESIGN section 3
 */
import mitt from 'mitt';
import type { Boost, BoostChangeRequest } from '../boost/boost.js';
import type { Campaigns } from '../client/campaigns.js';
import type { CreatorSearch } from '../client/creators.js';
import type { CampaignDetail, Creator } from '../schema/campaigns.js';
import { broken, SearchText } from '../schema/rules.js';
import type { BoostRecord } from '../schema/sponsors.js';
import type { PickerCore } from './picker-core.js';
import { importPickerCore } from './picker-import.js';

/** Options of `gc.picker(options)`. */
export interface CreatorPickerOptions {
  /** The campaign whose creators are offered; also the campaign of the boost change. */
  campaignId: string;
  /** Quiet time after the last keystroke before a search is sent, ms. @defaultValue 250 */
  debounceMs?: number;
  /** At most this many search results (1 to 100). @defaultValue the service's */
  limit?: number;
  /** Search and boost in test mode (mock data, nothing recorded). @defaultValue false */
  isTest?: boolean;
  /**
   * The clock the 30-day cooldown is judged by, ms since the epoch. A game with a server-synchronised clock
   * passes it, so a player who moves the device clock sees the cooldown the service applies.
   * @defaultValue the platform's wall clock
   */
  now?: () => number;
}

/** A snapshot of the picker; each change replaces it (so `state === previous` means nothing changed). */
export interface CreatorPickerState {
  /** The campaign, once loaded. */
  readonly campaign: CampaignDetail | undefined;
  /** The campaign's creators, once loaded. */
  readonly creators: readonly Creator[];
  /** True while the campaign, its creators and the current boost load. */
  readonly loading: boolean;
  /** The search text as typed. */
  readonly query: string;
  /** Results for `query`; undefined while there is no valid query (empty or over 10 characters) or no answer yet. */
  readonly results: readonly Creator[] | undefined;
  /** True from a valid keystroke until its answer (debounce included). */
  readonly searching: boolean;
  /** The player's current boost; undefined when they have none (or before it loaded). */
  readonly boost: BoostRecord | undefined;
  /** The creator key the player selected. */
  readonly selected: string | undefined;
  /**
   * True when `confirm()` would send a change: a creator other than the one boosted in this campaign is selected (the
   * creator a boost in another campaign points at counts as a change), no cooldown, nothing in flight.
   */
  readonly canConfirm: boolean;
  /**
   * Whole days until the boost may change, while the 30-day cooldown runs; counted down while the picker lives (a
   * `change` when the count drops, and when the cooldown ends). assumed: from the boost's `sponsoredAt` on the device
   * clock, rounded up; the service's `daysRemaining` wins once it has answered a change with it.
   */
  readonly cooldownDays: number | undefined;
  /** True while a boost change is in flight. */
  readonly confirming: boolean;
  /** The last failure (load, search or confirm); cleared by the next success of the same kind. */
  readonly error: Error | undefined;
}

/** `gc.picker(...)`: state and actions for a creator picker screen. */
export interface CreatorPicker {
  /** The current snapshot. */
  readonly state: CreatorPickerState;
  /** Calls `listener` with each new state; returns its unsubscribe function. */
  on(type: 'change', listener: (state: CreatorPickerState) => void): () => void;
  /** Sets the search text; a valid one (1 to 10 characters) is sent after the debounce, replacing any search in flight. */
  search(query: string): void;
  /** Selects a creator (or none): a key as typed, in any case and with spaces around it, is the creator it names. */
  select(creatorKey: string | undefined): void;
  /**
   * Changes the boost to the selected creator. Sends nothing when `canConfirm` is false (during the cooldown,
   * `cooldownDays` says how long); asked while loading, decides once the load is done. Never rejects. When the service answers with the cooldown, `boost` is read again
   * (the player may have boosted elsewhere since it loaded).
   * @returns the new boost, or undefined when nothing changed (the reason is in the state)
   */
  confirm(options?: Pick<BoostChangeRequest, 'callbackId'>): Promise<BoostRecord | undefined>;
  /** Loads the campaign, its creators and the current boost again. Never rejects. */
  reload(): Promise<void>;
  /** Stops timers, aborts searches, drops listeners; later answers change nothing. A boost change in flight still completes at the service. */
  dispose(): void;
}

/** What the picker reads and writes through: the facade's clients. */
export interface CreatorPickerSource {
  /** The campaign and its creators (Client API reads). */
  campaigns: Pick<Campaigns, 'get' | 'listCreators'>;
  /** The player's current boost, and the change `confirm()` sends. */
  boost: Boost;
  /** Creator search whose request `signal` aborts. */
  search(search: CreatorSearch, signal: AbortSignal): Promise<Creator[]>;
  /** Wall clock, ms (the platform's); `options.now` replaces it. */
  now(): number;
  /** Where each picker stays until it is disposed (the facade disposes those still there with itself). */
  live?: Set<CreatorPicker>;
}

/**
 * What builds a picker from its source (`createCreatorPicker`). React Native's facade takes it from
 * `game-campaign-sdk/react-native/picker` (`modules.picker`), so an app that shows no picker carries none of it.
 */
export type CreatorPickerFactory = (source: CreatorPickerSource, options: CreatorPickerOptions) => CreatorPicker;

/**
 * Builds a picker and starts loading its campaign, creators and the player's boost. The picker's code
 * (./picker-core.ts) is imported with the first picker, not when the game starts: until it arrives `state` is the
 * first snapshot (`loading`), and what the game calls meanwhile applies once it has, in call order. When it cannot
 * load (the page went offline), `state.error` says why and the next call, `reload()` included, tries again.
 */
export function createCreatorPicker(source: CreatorPickerSource, options: CreatorPickerOptions): CreatorPicker {
  const emitter = mitt<{ change: CreatorPickerState }>();
  // Members that start undefined are left out: the snapshot type still lists them.
  let state = { creators: [], loading: true, query: '', searching: false, canConfirm: false, confirming: false } as object as CreatorPickerState;
  let core: PickerCore | undefined;
  /** The import of the picker's code; forgotten when it fails, so the next call tries again. */
  let imported: Promise<void> | undefined;
  /** The load of the campaign, creators and boost that the code starts when it arrives. */
  let firstLoad: Promise<void> | undefined;
  let disposed = false;
  const load = () =>
    (imported ??= importPickerCore().then(
      (module) => {
        if (disposed) return;
        core = module.pickerCore(source, options, emitter, state, (query) => !broken(SearchText, query));
        firstLoad = core.reload();
      },
      (error: Error) => {
        imported = undefined;
        if (disposed) return;
        state = { ...state, loading: false, error };
        try {
          emitter.emit('change', state);
        } catch (bug) {
          // A listener's bug must not surface as an unhandled rejection (as in ./picker-core.ts).
          console.error(bug);
        }
      },
    ));
  /** `run` on the picker's code: at once when it is here, else once it has loaded (never, if it cannot). */
  const later = <T>(run: (core: PickerCore) => T) => (core ? run(core) : load().then(() => core && run(core)));

  const picker: CreatorPicker = {
    get state() {
      return core ? core.state : state;
    },
    on(type, listener) {
      emitter.on(type, listener);
      return () => emitter.off(type, listener);
    },
    search: (query) => later((core) => core.search(query)),
    select: (selected) => later((core) => core.select(selected)),
    confirm: async (extra) => later((core) => core.confirm(extra)),
    // Before the code is here, the load it starts when it arrives.
    reload: async () => (core ? core.reload() : load().then(() => firstLoad)),
    dispose() {
      disposed = true;
      core?.dispose();
      emitter.all.clear();
      // Forgotten once disposed, so a game that opens many boost screens does not keep them all.
      source.live?.delete(picker);
    },
  };
  source.live?.add(picker);
  void load();
  return picker;
}
