/**
 * The headless creator picker on fake timers with a fake source: debounce, stale answers ignored and aborted, the
 * 1-10 character rule, the cooldown, errors as state, no unhandled rejection, and dispose.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Boost, BoostChangeRequest } from '../../../core/boost/boost.js';
import type { CreatorSearch } from '../../../core/client/creators.js';
import { BoostCooldownError, ConnectionError, NotFoundError } from '../../../core/http/errors.js';
import { createCreatorPicker, type CreatorPickerOptions, type CreatorPickerState } from '../../../core/picker/picker.js';
// The picker's code, imported by the first picker: loaded here first, so the fake timers need not wait for a file.
import '../../../core/picker/picker-core.js';
import type { CampaignDetail, Creator } from '../../../core/schema/campaigns.js';
import type { BoostRecord } from '../../../core/schema/sponsors.js';

const NOW = Date.parse('2025-06-01T12:00:00.000Z');
const DAY = 86_400_000;
const CAMPAIGN: CampaignDetail = {
  campaignId: 'cmp_1', projectId: 'p', campaignName: { en: 'Spring' }, description: { en: '' },
  startDate: '2025-05-01T00:00:00.000Z', endDate: '2025-07-01T00:00:00.000Z', status: 'ACTIVE',
};
const creator = (creatorKey: string): Creator => ({ creatorId: 1, creatorName: creatorKey.toLowerCase(), genre: 'rpg', creatorKey, status: 'ACTIVE' });
const CREATORS = [creator('LUNA7'), creator('PIXEL'), creator('NOVA1')];
const boostOf = (creatorKey: string, daysAgo: number): BoostRecord => ({
  userId: 'player-1', campaignId: 'cmp_1', creatorKey, creatorName: creatorKey.toLowerCase(), isActive: true, sponsoredAt: new Date(NOW - daysAgo * DAY).toISOString(),
});

/** A search request the test answers by hand. */
interface PendingSearch {
  query: string;
  signal: AbortSignal;
  resolve(creators: Creator[]): void;
  reject(error: Error): void;
}

function fakeSource(options: { boost?: BoostRecord; currentError?: Error } = {}) {
  const searches: PendingSearch[] = [];
  const changes: BoostChangeRequest[] = [];
  let changeResult: () => Promise<BoostRecord> = async () => boostOf(changes.at(-1)!.newCreatorKey, 0);
  const boost: Boost = {
    change: async (request) => {
      changes.push(request);
      return changeResult();
    },
    current: async () => {
      if (options.currentError) throw options.currentError;
      return options.boost;
    },
  };
  const source = {
    campaigns: { get: vi.fn(async () => CAMPAIGN), listCreators: vi.fn(async () => CREATORS) },
    boost,
    // Deliberately ignores the signal when answered: a late answer must still be ignored by the picker.
    search: vi.fn((search: CreatorSearch, signal: AbortSignal) => new Promise<Creator[]>((resolve, reject) => searches.push({ query: search.query, signal, resolve, reject }))),
    now: () => Date.now(),
  };
  return { source, searches, changes, failChanges: (make: () => Promise<BoostRecord>) => (changeResult = make) };
}

async function ready(source: ReturnType<typeof fakeSource>['source'], options: Partial<CreatorPickerOptions> = {}) {
  const picker = createCreatorPicker(source, { campaignId: 'cmp_1', ...options });
  const states: CreatorPickerState[] = [];
  picker.on('change', (state) => states.push(state));
  await vi.advanceTimersByTimeAsync(0);
  return { picker, states };
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  // Let any stray rejection surface before checking.
  await vi.advanceTimersByTimeAsync(10_000);
  process.off('unhandledRejection', onUnhandled);
  vi.useRealTimers();
  expect(unhandled).toEqual([]);
});

describe('creator picker: loading', () => {
  it('loads the campaign, its creators and the current boost', async () => {
    const { source } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const { picker } = await ready(source);
    expect(picker.state).toMatchObject({ campaign: CAMPAIGN, creators: CREATORS, boost: { creatorKey: 'LUNA7' }, loading: false, error: undefined, cooldownDays: undefined, canConfirm: false });
    expect(source.campaigns.get).toHaveBeenCalledWith('cmp_1');
  });

  it('keeps what loaded and shows the failure as state', async () => {
    const failure = new ConnectionError({ code: 'CONNECTION_ERROR', message: 'offline' });
    const { source } = fakeSource({ currentError: failure });
    const { picker } = await ready(source);
    expect(picker.state).toMatchObject({ campaign: CAMPAIGN, creators: CREATORS, loading: false, error: failure });
  });

  it('a part that fails first does not end loading while the others are on their way; reload resolves with them all', async () => {
    const failure = new ConnectionError({ code: 'CONNECTION_ERROR', message: 'offline' });
    const { source } = fakeSource({ currentError: failure });
    let arrive = (_campaign: CampaignDetail) => {};
    source.campaigns.get.mockImplementation(() => new Promise<CampaignDetail>((resolve) => (arrive = resolve)));
    const { picker, states } = await ready(source);
    expect(picker.state).toMatchObject({ loading: true, creators: CREATORS });
    expect(picker.state.campaign).toBeUndefined();
    const reloaded = picker.reload();
    await vi.advanceTimersByTimeAsync(0);
    arrive(CAMPAIGN);
    await reloaded;
    expect(picker.state).toMatchObject({ campaign: CAMPAIGN, creators: CREATORS, loading: false, error: failure });
    expect(states.filter((state) => !state.loading).every((state) => state.campaign === CAMPAIGN)).toBe(true);
  });
});

describe('creator picker: search', () => {
  it('debounces keystrokes: one request 250 ms after the last one', async () => {
    const { source, searches } = fakeSource();
    const { picker } = await ready(source);
    picker.search('l');
    await vi.advanceTimersByTimeAsync(200);
    picker.search('lu');
    await vi.advanceTimersByTimeAsync(249);
    expect(searches).toHaveLength(0);
    expect(picker.state).toMatchObject({ query: 'lu', searching: true });
    await vi.advanceTimersByTimeAsync(1);
    expect(searches.map((s) => s.query)).toEqual(['lu']);
    searches[0]!.resolve([CREATORS[0]!]);
    await vi.advanceTimersByTimeAsync(0);
    expect(picker.state).toMatchObject({ query: 'lu', results: [CREATORS[0]], searching: false });
  });

  it('honours a custom debounce', async () => {
    const { source, searches } = fakeSource();
    const { picker } = await ready(source, { debounceMs: 50 });
    picker.search('lu');
    await vi.advanceTimersByTimeAsync(50);
    expect(searches).toHaveLength(1);
  });

  it('aborts a slow search when a newer one starts, and ignores its late answer', async () => {
    const { source, searches } = fakeSource();
    const { picker } = await ready(source);
    picker.search('lu');
    await vi.advanceTimersByTimeAsync(250);
    picker.search('luna');
    expect(searches[0]!.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(250);
    searches[1]!.resolve([CREATORS[0]!]);
    await vi.advanceTimersByTimeAsync(0);
    // The stale answer arrives after the newer one: ignored.
    searches[0]!.resolve([CREATORS[1]!, CREATORS[2]!]);
    searches[0]!.reject(new Error('aborted'));
    await vi.advanceTimersByTimeAsync(0);
    expect(picker.state).toMatchObject({ query: 'luna', results: [CREATORS[0]], searching: false, error: undefined });
  });

  it('sends queries of 1 and 10 characters, never of 0 or 11', async () => {
    const { source, searches } = fakeSource();
    const { picker } = await ready(source);
    for (const query of ['a', '', '0123456789', '0123456789X']) {
      picker.search(query);
      await vi.advanceTimersByTimeAsync(300);
    }
    expect(searches.map((s) => s.query)).toEqual(['a', '0123456789']);
    expect(picker.state).toMatchObject({ query: '0123456789X', results: undefined, searching: false });
    // Typing past the limit also drops the search in flight.
    expect(searches[1]!.signal.aborted).toBe(true);
  });

  it('passes limit and isTest to the search', async () => {
    const { source } = fakeSource();
    const { picker } = await ready(source, { limit: 5, isTest: true });
    picker.search('ab');
    await vi.advanceTimersByTimeAsync(250);
    expect(source.search).toHaveBeenCalledWith({ query: 'ab', limit: 5, isTest: true }, expect.any(AbortSignal));
  });

  it('shows a failed search as state, and clears it with the next answer', async () => {
    const { source, searches } = fakeSource();
    const { picker } = await ready(source);
    picker.search('ab');
    await vi.advanceTimersByTimeAsync(250);
    const failure = new ConnectionError({ code: 'CONNECTION_ERROR', message: 'offline' });
    searches[0]!.reject(failure);
    await vi.advanceTimersByTimeAsync(0);
    expect(picker.state).toMatchObject({ error: failure, searching: false });
    picker.search('abc');
    await vi.advanceTimersByTimeAsync(250);
    searches[1]!.resolve([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(picker.state).toMatchObject({ error: undefined, results: [] });
  });
});

describe('creator picker: confirm', () => {
  it('changes the boost to the selected creator and updates the current boost', async () => {
    const { source, changes } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const { picker } = await ready(source);
    picker.select('LUNA7');
    expect(picker.state.canConfirm).toBe(false); // already boosted
    picker.select('PIXEL');
    expect(picker.state.canConfirm).toBe(true);
    const confirming = picker.confirm({ callbackId: 'cb-1' });
    expect(picker.state).toMatchObject({ confirming: true, canConfirm: false });
    await expect(confirming).resolves.toMatchObject({ creatorKey: 'PIXEL' });
    expect(changes).toEqual([{ newCreatorKey: 'PIXEL', campaignId: 'cmp_1', isTest: undefined, callbackId: 'cb-1' }]);
    // The change restarted the cooldown.
    expect(picker.state).toMatchObject({ boost: { creatorKey: 'PIXEL' }, confirming: false, cooldownDays: 30, canConfirm: false });
  });

  it('in test mode returns the mock boost but keeps showing the player\'s own: nothing was recorded, no cooldown started', async () => {
    // Before, the mock answer became the state's boost: cooldownDays 30 and canConfirm false after one test confirm.
    const { source, changes } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const { picker } = await ready(source, { isTest: true });
    picker.select('PIXEL');
    await expect(picker.confirm()).resolves.toMatchObject({ creatorKey: 'PIXEL' });
    expect(changes).toEqual([{ newCreatorKey: 'PIXEL', campaignId: 'cmp_1', isTest: true }]);
    expect(picker.state).toMatchObject({ boost: { creatorKey: 'LUNA7' }, cooldownDays: undefined, canConfirm: true });
  });

  it('offers the creator of a boost in another campaign: boosting them in this campaign is a change', async () => {
    const { source, changes } = fakeSource({ boost: { ...boostOf('LUNA7', 40), campaignId: 'cmp_earlier' } });
    const { picker } = await ready(source);
    picker.select('LUNA7');
    expect(picker.state.canConfirm).toBe(true);
    await expect(picker.confirm()).resolves.toMatchObject({ creatorKey: 'LUNA7', campaignId: 'cmp_1' });
    expect(changes).toEqual([{ newCreatorKey: 'LUNA7', campaignId: 'cmp_1', isTest: undefined }]);
    expect(picker.state).toMatchObject({ boost: { creatorKey: 'LUNA7', campaignId: 'cmp_1' }, canConfirm: false });
  });

  it.each([
    ['sends the change once the boost is in and allows it', 40, ['PIXEL']],
    ['sends nothing when the boost that arrives is inside the cooldown', 10, []],
  ])('a confirm() asked while the picker loads waits for the load: %s', async (_title, daysAgo, sent) => {
    // Before: it returned undefined at once (canConfirm is false while loading), so a game's script that selected and
    // confirmed as the screen opened boosted nothing.
    const { source, changes } = fakeSource();
    let answerBoost: (boost: BoostRecord) => void = () => {};
    source.boost.current = () => new Promise<BoostRecord | undefined>((resolve) => (answerBoost = resolve));
    const { picker } = await ready(source);
    expect(picker.state.loading).toBe(true);
    picker.select('PIXEL');
    const confirming = picker.confirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([]);
    answerBoost(boostOf('LUNA7', daysAgo));
    const result = await confirming;
    expect(changes.map((change) => change.newCreatorKey)).toEqual(sent);
    expect(result?.creatorKey).toBe(sent[0]);
    expect(picker.state.loading).toBe(false);
  });

  it('during the cooldown gives cooldownDays and sends nothing', async () => {
    const { source, changes } = fakeSource({ boost: boostOf('LUNA7', 10) });
    const { picker } = await ready(source);
    picker.select('PIXEL');
    expect(picker.state).toMatchObject({ cooldownDays: 20, canConfirm: false });
    await expect(picker.confirm()).resolves.toBeUndefined();
    expect(changes).toEqual([]);
    // 19.5 days later one day remains (rounded up); a day after that the boost may change.
    vi.setSystemTime(NOW + 19.5 * DAY);
    await picker.confirm();
    expect(picker.state).toMatchObject({ cooldownDays: 1 });
    vi.setSystemTime(NOW + 20 * DAY);
    await picker.confirm();
    expect(changes).toHaveLength(1);
  });

  it('counts the cooldown down while the screen stays open, and offers the change once it ends, with no call', async () => {
    // Before, the state kept the days it computed at the last change: a player whose cooldown ended with the boost
    // screen open saw "1 day" and a disabled Boost until they did something else.
    const { source } = fakeSource({ boost: boostOf('LUNA7', 10) });
    const { picker, states } = await ready(source);
    picker.select('PIXEL');
    expect(picker.state).toMatchObject({ cooldownDays: 20, canConfirm: false });
    await vi.advanceTimersByTimeAsync(19.5 * DAY);
    expect(picker.state).toMatchObject({ cooldownDays: 1, canConfirm: false });
    await vi.advanceTimersByTimeAsync(0.5 * DAY);
    expect(picker.state).toMatchObject({ cooldownDays: undefined, canConfirm: true });
    expect(states.at(-1)).toBe(picker.state); // told as a change
    picker.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes the cooldown the service reports when it disagrees with the device clock', async () => {
    const { source, changes, failChanges } = fakeSource({ boost: boostOf('LUNA7', 40) });
    failChanges(async () => {
      throw new BoostCooldownError({ status: 400, code: 'BAD_REQUEST', message: 'Boost can be changed again in 3 days', daysRemaining: 3 });
    });
    const { picker } = await ready(source);
    picker.select('PIXEL');
    await expect(picker.confirm()).resolves.toBeUndefined();
    expect(picker.state).toMatchObject({ cooldownDays: 3, canConfirm: false, confirming: false, error: expect.any(BoostCooldownError) });
    await picker.confirm();
    expect(changes).toHaveLength(1);
  });

  it('leaves the cooldown to the service when the device clock is behind the boost, and counts the new one from its answer', async () => {
    // Before, a device clock 45 days behind counted a boost of 40 days ago as 5 days in the future: "35 days" (past the
    // spec's 30), canConfirm false and nothing sent, though the service allows the change.
    const behind = () => Date.now() - 45 * DAY;
    const { source, changes } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const { picker } = await ready(source, { now: behind });
    picker.select('PIXEL');
    expect(picker.state).toMatchObject({ cooldownDays: undefined, canConfirm: true });
    await expect(picker.confirm()).resolves.toMatchObject({ creatorKey: 'PIXEL' });
    expect(changes).toHaveLength(1);
    // The change's boost is dated by the service, 45 days ahead of this clock: the new cooldown counts from now here.
    picker.select('NOVA1');
    expect(picker.state).toMatchObject({ boost: { creatorKey: 'PIXEL' }, cooldownDays: 30, canConfirm: false });

    // Still in the cooldown by the service's clock (boosted 10 days ago): the service's answer gives the days.
    const second = fakeSource({ boost: boostOf('LUNA7', 10) });
    second.failChanges(async () => {
      throw new BoostCooldownError({ status: 400, code: 'BAD_REQUEST', message: 'Boost can be changed again in 20 days', daysRemaining: 20 });
    });
    const { picker: other } = await ready(second.source, { now: behind });
    other.select('PIXEL');
    await other.confirm();
    expect(other.state).toMatchObject({ cooldownDays: 20, canConfirm: false, error: expect.any(BoostCooldownError) });
  });

  it('shows the boost the service holds once it answers with the cooldown (the player boosted in another tab or device)', async () => {
    // Before, the picker kept showing the creator it loaded as the boosted one, under the service's cooldown message.
    const held: { boost: BoostRecord } = { boost: boostOf('LUNA7', 40) };
    const { source, failChanges } = fakeSource(held);
    const { picker } = await ready(source);
    held.boost = boostOf('NOVA1', 0); // the other tab's change
    failChanges(async () => {
      throw new BoostCooldownError({ status: 400, code: 'BAD_REQUEST', message: 'Boost can be changed again in 30 days', daysRemaining: 30 });
    });
    picker.select('PIXEL');
    await expect(picker.confirm()).resolves.toBeUndefined();
    expect(picker.state).toMatchObject({ boost: { creatorKey: 'NOVA1' }, cooldownDays: 30, canConfirm: false, confirming: false, error: expect.any(BoostCooldownError) });
  });

  it('keeps the boost a change made when a reload read the boost before it (answers out of order)', async () => {
    // Before, reload()'s read, sent while the change was in flight and answered after it, put the old boost back:
    // the screen showed LUNA7 boosted under a 30-day cooldown the change to PIXEL had started.
    const { source, changes } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const { picker } = await ready(source);
    let answerRead!: (boost: BoostRecord) => void;
    source.boost.current = () => new Promise<BoostRecord | undefined>((resolve) => (answerRead = resolve));
    picker.select('PIXEL');
    const confirmed = picker.confirm();
    const reloaded = picker.reload();
    await expect(confirmed).resolves.toMatchObject({ creatorKey: 'PIXEL' });
    answerRead(boostOf('LUNA7', 40)); // read by the service before the change
    await reloaded;
    expect(changes).toHaveLength(1);
    expect(picker.state).toMatchObject({ boost: { creatorKey: 'PIXEL' }, loading: false, cooldownDays: 30, canConfirm: false });
    // A reload begun after the change shows what the service then holds.
    const again = picker.reload();
    answerRead(boostOf('NOVA1', 0));
    await again;
    expect(picker.state.boost?.creatorKey).toBe('NOVA1');
  });

  it('keeps the boost it shows when the boost cannot be read after the cooldown answer', async () => {
    const { source, failChanges } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const { picker } = await ready(source);
    source.boost.current = async () => Promise.reject(new ConnectionError({ code: 'CONNECTION_ERROR', message: 'offline' }));
    failChanges(async () => {
      throw new BoostCooldownError({ status: 400, code: 'BAD_REQUEST', message: 'Boost can be changed again in 2 days', daysRemaining: 2 });
    });
    picker.select('PIXEL');
    await expect(picker.confirm()).resolves.toBeUndefined();
    expect(picker.state).toMatchObject({ boost: { creatorKey: 'LUNA7' }, cooldownDays: 2, confirming: false, error: expect.any(BoostCooldownError) });
  });

  it('shows a failed change as state and never rejects', async () => {
    const { source, failChanges } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const failure = new NotFoundError({ status: 404, code: 'NOT_FOUND', message: 'Creator ZZZZ9 not found' });
    failChanges(async () => {
      throw failure;
    });
    const { picker } = await ready(source);
    picker.select('ZZZZ9');
    await expect(picker.confirm()).resolves.toBeUndefined();
    expect(picker.state).toMatchObject({ error: failure, confirming: false, canConfirm: true, boost: { creatorKey: 'LUNA7' } });
  });

  it('takes a creator key as a player types it (lower case, spaces around it) as the key it names, and a blank one as none', async () => {
    // Creator keys are 5 uppercase letters or digits (spec "Creator"), and the service's search matches them in any
    // case; a change names the key exactly. Before, select('luna7') while LUNA7 was boosted offered a change
    // (canConfirm) and confirm() sent 'luna7', the service's 404 "Creator luna7 not found"; ' PIXEL ' likewise.
    const { source, changes } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const { picker } = await ready(source);
    picker.select('luna7');
    expect(picker.state).toMatchObject({ selected: 'LUNA7', canConfirm: false });
    picker.select('   ');
    expect(picker.state).toMatchObject({ selected: undefined, canConfirm: false });
    await expect(picker.confirm()).resolves.toBeUndefined();
    picker.select(' pixel\n');
    expect(picker.state).toMatchObject({ selected: 'PIXEL', canConfirm: true });
    await expect(picker.confirm()).resolves.toMatchObject({ creatorKey: 'PIXEL' });
    expect(changes).toEqual([{ newCreatorKey: 'PIXEL', campaignId: 'cmp_1', isTest: undefined }]);
  });

  it('does nothing without a selection', async () => {
    const { source, changes } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const { picker } = await ready(source);
    await expect(picker.confirm()).resolves.toBeUndefined();
    expect(changes).toEqual([]);
  });
});

describe('creator picker: events and dispose', () => {
  it('hands each listener a new snapshot, and unsubscribes', async () => {
    const { source } = fakeSource();
    const { picker, states } = await ready(source);
    const listener = vi.fn();
    const off = picker.on('change', listener);
    const before = picker.state;
    picker.select('PIXEL');
    expect(listener).toHaveBeenCalledWith(picker.state);
    expect(picker.state).not.toBe(before);
    expect(before.selected).toBeUndefined();
    off();
    picker.select('NOVA1');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(states.at(-1)!.selected).toBe('NOVA1');
  });

  it('survives a listener that throws', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { source, searches } = fakeSource();
    const { picker } = await ready(source);
    picker.on('change', () => {
      throw new Error('render bug');
    });
    picker.search('ab');
    await vi.advanceTimersByTimeAsync(250);
    searches[0]!.resolve([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(picker.state.results).toEqual([]);
    expect(consoleError).toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('reads no boost once disposed when a change in flight then meets the cooldown', async () => {
    // Before, a picker disposed (the boost screen closed, gc.dispose()) while its change was in flight still asked the
    // service for the boost when the change came back with the cooldown: a request after dispose, for nothing.
    const { source, failChanges } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const { picker } = await ready(source);
    const reads = vi.spyOn(source.boost, 'current');
    let refuse!: () => void;
    failChanges(() => new Promise((_resolve, reject) => (refuse = () => reject(new BoostCooldownError({ status: 400, code: 'BAD_REQUEST', message: 'Boost can be changed again in 3 days', daysRemaining: 3 })))));
    picker.select('PIXEL');
    const confirmed = picker.confirm();
    await vi.advanceTimersByTimeAsync(0);
    picker.dispose();
    refuse();
    await expect(confirmed).resolves.toBeUndefined();
    expect(reads).not.toHaveBeenCalled();
  });

  it('dispose stops timers, aborts the search in flight and emits nothing more', async () => {
    const { source, searches, changes } = fakeSource({ boost: boostOf('LUNA7', 40) });
    const { picker } = await ready(source);
    picker.select('PIXEL');
    expect(picker.state.canConfirm).toBe(true);
    picker.search('ab');
    await vi.advanceTimersByTimeAsync(250);
    picker.search('abc'); // debounce timer pending
    const inFlight = searches[0]!;
    const listener = vi.fn();
    picker.on('change', listener);
    picker.dispose();
    expect(inFlight.signal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(searches).toHaveLength(1);
    inFlight.resolve([]);
    picker.search('abcd');
    picker.select('NOVA1');
    await picker.reload();
    await expect(picker.confirm()).resolves.toBeUndefined();
    expect(changes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(searches).toHaveLength(1);
    expect(source.campaigns.get).toHaveBeenCalledTimes(1);
    expect(listener).not.toHaveBeenCalled();
    expect(picker.state.query).toBe('abc');
  });
});
