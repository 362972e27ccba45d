/**
 * What the creator picker does (./picker.ts holds its types and the part a game calls): the state it derives (the
 * cooldown, whether confirming is allowed), the debounced search, the boost change and the loads. ./picker.ts imports
 * this module when the first picker is created (a boost screen opens), not when the game starts; it imports nothing
 * the entry does (the emitter, the query rule and the cooldown's error class come in as arguments), so it is a chunk
 * of its own. The `<script>` bundle loads it as `game-campaign.picker.js`.
 * @see DESIGN section 3
 */
import type { Emitter } from 'mitt';
import type { BoostCooldownError } from '../http/errors.js';
import type { CreatorPicker, CreatorPickerOptions, CreatorPickerSource, CreatorPickerState } from './picker.js';

const DAY_MS = 86_400_000;
/** Days a boost stays on one creator (spec "Limits"); the same figure as `BOOST_COOLDOWN_DAYS`, which lives beside zod. */
const COOLDOWN_DAYS = 30;

/** The picker once its code has loaded: everything but `on`, which ./picker.ts answers from the start. */
export type PickerCore = Omit<CreatorPicker, 'on'>;

/**
 * The picker's behaviour over `emitter` (./picker.ts's, whose listeners it tells every change), from `state` (the
 * first snapshot, or a failed import's). `validQuery` is the `SearchText` rule (1 to 10 characters: code points), as
 * creators.search checks it. Loads nothing until `reload()`.
 */
export function pickerCore(
  source: CreatorPickerSource,
  options: CreatorPickerOptions,
  emitter: Emitter<{ change: CreatorPickerState }>,
  state: CreatorPickerState,
  validQuery: (query: string) => boolean,
): PickerCore {
  const { campaignId, debounceMs = 250, limit, isTest, now = source.now } = options;
  let disposed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Wakes the picker when the cooldown's day count next changes, so an open screen counts down and then offers the change. */
  let cooldownTimer: ReturnType<typeof setTimeout> | undefined;
  let search: AbortController | undefined;
  let load: object | undefined;
  /** The last `reload()`, settled once its loading state has ended: a `confirm()` asked meanwhile waits for it. */
  let loaded: Promise<void> | undefined;
  /** End of a cooldown the service reported (its clock is the authority when it disagrees with ours). */
  let reportedCooldownEnd = 0;
  /** Boost changes made: a boost read begun before the last of them may predate it. */
  let changes = 0;

  const set = (patch: Partial<CreatorPickerState>) => {
    if (disposed) return;
    const next = { ...state, ...patch };
    const sponsoredAt = next.boost ? Date.parse(next.boost.sponsoredAt) : 0;
    const at = now();
    // A boost dated after the device's clock proves that clock behind (by more than the boost's age): counted on it,
    // the cooldown would run past its 30 days and hold back a change the service allows. It is left to the service,
    // whose answer to confirm() (the days remaining, or the change) then counts.
    const boostCooldownEnd = sponsoredAt <= at ? sponsoredAt + COOLDOWN_DAYS * DAY_MS : 0;
    const remainingMs = Math.max(boostCooldownEnd, reportedCooldownEnd) - at;
    const cooldownDays = remainingMs > 0 ? Math.ceil(remainingMs / DAY_MS) : undefined;
    clearTimeout(cooldownTimer);
    // When the day count next changes, at most a day ahead (a delay over 2^31 - 1 ms, 24.8 days, would fire at once).
    if (cooldownDays) cooldownTimer = setTimeout(() => set({}), remainingMs % DAY_MS || DAY_MS);
    // The creator boosted in another campaign (an earlier one) is a change in this one, as the service takes it.
    const boosted = next.boost?.campaignId === campaignId ? next.boost.creatorKey : undefined;
    const canConfirm = next.selected !== undefined && next.selected !== boosted && !cooldownDays && !next.confirming && !next.loading;
    state = { ...next, cooldownDays, canConfirm };
    try {
      emitter.emit('change', state);
    } catch (error) {
      // A listener's bug must not break the picker or surface as an unhandled rejection from its timers.
      console.error(error);
    }
  };

  const stopSearch = () => {
    clearTimeout(timer);
    search?.abort();
    search = undefined;
  };

  const send = (query: string) => {
    const controller = (search = new AbortController());
    const latest = () => search === controller && !disposed;
    source.search({ query, limit, isTest }, controller.signal).then(
      (results) => latest() && set({ results, searching: false, error: undefined }),
      (error: Error) => latest() && set({ searching: false, error }),
    );
  };

  return {
    get state() {
      return state;
    },
    search(query) {
      stopSearch();
      const valid = validQuery(query);
      set({ query, results: undefined, searching: valid });
      if (valid && !disposed) timer = setTimeout(() => send(query), debounceMs);
    },
    select(selected) {
      // A key as a player types it ('luna7 '): creator keys are 5 uppercase letters or digits (spec "Creator") and a
      // change names one exactly (the service's 404 otherwise), so it is the key it names; a blank one is none.
      set({ selected: selected?.trim().toUpperCase() || undefined });
    },
    async confirm(extra) {
      // Asked while loading (a game's script, right after select()): decided on what the load shows (the boost, so the
      // cooldown), as the player's Boost button would be once enabled. assumed: waiting beats sending nothing.
      if (state.loading) await loaded;
      set({});
      if (disposed || !state.canConfirm) return undefined;
      set({ confirming: true, error: undefined });
      try {
        const boost = await source.boost.change({ newCreatorKey: state.selected!, campaignId, isTest, ...extra });
        // Test mode records nothing (spec "Test mode"): the player's boost, and so no cooldown, stays the service's;
        // the mock answer is only what confirm() returns.
        // A change starts a new cooldown, counted from now on the device's clock (the boost's date may be ahead of it).
        if (!isTest) {
          reportedCooldownEnd = now() + COOLDOWN_DAYS * DAY_MS;
          changes++;
        }
        set({ boost: isTest ? state.boost : boost, confirming: false });
        return boost;
      } catch (error) {
        let { boost } = state;
        // By name, not `instanceof`: React Native's picker entry is a file of its own, with its own error classes.
        // Disposed meanwhile: nothing is shown any more, so nothing is read.
        if (!disposed && (error as Partial<BoostCooldownError> | undefined)?.name === 'BoostCooldownError') {
          reportedCooldownEnd = now() + (error as BoostCooldownError).daysRemaining * DAY_MS;
          // The boost may have changed elsewhere (another tab or device of the player's): show the service's.
          boost = await source.boost.current().catch(() => boost);
        }
        set({ boost, confirming: false, error: error as Error });
        return undefined;
      }
    },
    async reload() {
      if (disposed) return;
      const current = (load = {});
      const changed = changes;
      const keep = (patch: Partial<CreatorPickerState>) => current === load && set(patch);
      set({ loading: true, error: undefined });
      // Each part shows as it arrives; loading ends once every part has arrived or failed (a failed part does not
      // end it while the others are on their way), and the first failure becomes the error.
      let failure: { error: Error } | undefined;
      await (loaded = Promise.all(
        [
          source.campaigns.get(campaignId).then((campaign) => keep({ campaign })),
          source.campaigns.listCreators(campaignId).then((creators) => keep({ creators })),
          // A read begun before a change that then succeeded may show the boost before it: the change's own stays.
          source.boost.current().then((boost) => changed === changes && keep({ boost })),
        ].map((part) => part.catch((error: Error) => void (failure ??= { error }))),
      ).then(() => void keep({ loading: false, ...failure })));
    },
    dispose() {
      stopSearch();
      clearTimeout(cooldownTimer);
      disposed = true;
    },
  };
}
