/**
 * The picker's code is imported with the first picker (core/picker/picker-import.ts, mocked here to hold it back or
 * fail): the first snapshot until it arrives, calls made meanwhile applied in order once it has, a failed import as
 * state that the next call retries, and a picker disposed before its code arrived loading nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Boost } from '../../../core/boost/boost.js';
import type * as PickerCore from '../../../core/picker/picker-core.js';
import { importPickerCore } from '../../../core/picker/picker-import.js';
import { createCreatorPicker, type CreatorPickerSource, type CreatorPickerState } from '../../../core/picker/picker.js';
import type { CampaignDetail, Creator } from '../../../core/schema/campaigns.js';

vi.mock('../../../core/picker/picker-import.js', () => ({ importPickerCore: vi.fn() }));
const realCore = () => vi.importActual<typeof PickerCore>('../../../core/picker/picker-core.js');

const CAMPAIGN = { campaignId: 'cmp_1' } as CampaignDetail;
const CREATORS = [{ creatorKey: 'LUNA7' }, { creatorKey: 'NOVA1' }] as Creator[];

function fakeSource() {
  const boost: Boost = { change: vi.fn(async ({ newCreatorKey }) => ({ creatorKey: newCreatorKey, sponsoredAt: new Date().toISOString() }) as never), current: vi.fn(async () => undefined) };
  const source: CreatorPickerSource = {
    campaigns: { get: vi.fn(async () => CAMPAIGN), listCreators: vi.fn(async () => CREATORS) },
    boost,
    search: vi.fn(async () => CREATORS),
    now: () => Date.now(),
    live: new Set(),
  };
  return source;
}

/** The import, held until `arrive()` or `fail(error)`. */
function heldImport() {
  let arrive!: () => void;
  let fail!: (error: Error) => void;
  const held = new Promise<typeof PickerCore>((resolve, reject) => {
    arrive = () => void realCore().then(resolve);
    fail = reject;
  });
  vi.mocked(importPickerCore).mockReturnValueOnce(held);
  return { arrive, fail };
}

const loaded = (picker: { state: CreatorPickerState; on(type: 'change', listener: (state: CreatorPickerState) => void): () => void }) =>
  new Promise<void>((resolve) => (picker.state.loading ? picker.on('change', (state) => !state.loading && resolve()) : resolve()));

afterEach(() => {
  vi.mocked(importPickerCore).mockReset();
});

describe('creator picker: its code, loaded with the first picker', () => {
  it('shows the first snapshot until the code arrives, then applies the calls made meanwhile in order', async () => {
    const { arrive } = heldImport();
    const source = fakeSource();
    const picker = createCreatorPicker(source, { campaignId: 'cmp_1', debounceMs: 0 });
    const heard: CreatorPickerState[] = [];
    picker.on('change', (state) => heard.push(state));
    picker.select('LUNA7');
    picker.search('nova');
    picker.select('NOVA1');
    await Promise.resolve();
    expect(picker.state).toEqual({ creators: [], loading: true, query: '', searching: false, canConfirm: false, confirming: false });
    expect(heard).toEqual([]);
    expect(source.campaigns.get).not.toHaveBeenCalled();

    arrive();
    await loaded(picker);
    expect(picker.state).toMatchObject({ campaign: CAMPAIGN, creators: CREATORS, query: 'nova', selected: 'NOVA1', loading: false, canConfirm: true });
    // In call order: LUNA7 selected, then the search, then NOVA1.
    expect(heard.findIndex((state) => state.selected === 'LUNA7')).toBeGreaterThanOrEqual(0);
    expect(heard.findIndex((state) => state.selected === 'LUNA7')).toBeLessThan(heard.findIndex((state) => state.query === 'nova'));
    expect(heard.findIndex((state) => state.query === 'nova')).toBeLessThan(heard.findIndex((state) => state.selected === 'NOVA1'));
    await expect(picker.confirm()).resolves.toMatchObject({ creatorKey: 'NOVA1' });
    expect(importPickerCore).toHaveBeenCalledTimes(1);
    picker.dispose();
  });

  it('shows a failed import as state, never rejects, and imports again on the next call', async () => {
    const { fail } = heldImport();
    const source = fakeSource();
    const picker = createCreatorPicker(source, { campaignId: 'cmp_1' });
    const heard: CreatorPickerState[] = [];
    picker.on('change', (state) => heard.push(state));
    const confirmed = picker.confirm();
    const offline = new TypeError('Failed to fetch dynamically imported module');
    fail(offline);
    await expect(confirmed).resolves.toBeUndefined();
    expect(picker.state).toMatchObject({ loading: false, error: offline });
    expect(heard).toEqual([picker.state]);
    expect(source.campaigns.get).not.toHaveBeenCalled();

    const { arrive } = heldImport();
    const reloaded = picker.reload();
    arrive();
    await reloaded;
    expect(picker.state).toMatchObject({ campaign: CAMPAIGN, creators: CREATORS, loading: false, error: undefined });
    expect(importPickerCore).toHaveBeenCalledTimes(2);
    // The reload was the one loading the code starts: one request of each.
    expect(source.campaigns.get).toHaveBeenCalledTimes(1);
    picker.dispose();
  });

  it('loads nothing for a picker disposed before its code arrived', async () => {
    const { arrive } = heldImport();
    const source = fakeSource();
    const picker = createCreatorPicker(source, { campaignId: 'cmp_1' });
    const listener = vi.fn();
    picker.on('change', listener);
    expect(source.live!.has(picker)).toBe(true);
    picker.dispose();
    expect(source.live!.has(picker)).toBe(false);
    arrive();
    await realCore();
    await new Promise((resolve) => setTimeout(resolve, 10));
    picker.select('LUNA7');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(listener).not.toHaveBeenCalled();
    expect(source.campaigns.get).not.toHaveBeenCalled();
  });
});
