/**
 * The jslib's picker and web view: core's headless picker and launcher, over the IIFE, a real relay and the
 * emulator, driven as C# drives them (handles, change events with errors as records, close).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_USERS } from '../../../emulator/index.js';
import { createBridgePage } from './bridge-page.js';
import type { Envelope, FakeUnityRuntime } from './fake-unity-runtime.js';

let page: ReturnType<typeof createBridgePage> | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await page?.close();
  page = undefined;
});

async function initialized(userId: string) {
  vi.useFakeTimers({ toFake: ['Date', 'performance', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  page = createBridgePage();
  const answer = page.unity.request('init', page.initOptions(userId));
  await vi.advanceTimersByTimeAsync(0);
  expect(await answer).toMatchObject({ ok: true });
  return page;
}

/** A request answered while fake time passes (the picker debounces searches for 250 ms). */
async function answered(unity: FakeUnityRuntime, method: string, args?: unknown, advanceMs = 1_000): Promise<Envelope> {
  const answer = unity.request(method, args);
  await vi.advanceTimersByTimeAsync(advanceMs);
  return answer;
}

const pickerStates = (unity: FakeUnityRuntime) => unity.messages.filter((m) => m['event'] === 'picker:change').map((m) => m['data'] as Envelope);

describe('GameCampaign.jslib picker and web view', () => {
  it('a picker in the cooldown: loads, searches, and confirming sends nothing while the state says how long', async () => {
    const { unity, emulator } = await initialized(DEMO_USERS.inCooldown);
    const opened = await answered(unity, 'picker.open', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    expect(opened).toMatchObject({ ok: true, value: { picker: 1, state: { loading: true, creators: [] } } });
    expect(pickerStates(unity).at(-1)).toMatchObject({ loading: false, boost: { creatorKey: 'PIXEL' }, cooldownDays: 20, canConfirm: false, campaign: { campaignId: DEMO_ACTIVE_CAMPAIGN_ID } });
    expect(unity.messages.every((m) => m['event'] !== 'picker:change' || m['picker'] === 1)).toBe(true);

    await answered(unity, 'picker.search', { picker: 1, query: 'Nova' });
    expect(pickerStates(unity).at(-1)).toMatchObject({ query: 'Nova', searching: false, results: [{ creatorKey: 'NOVA1' }] });
    await answered(unity, 'picker.select', { picker: 1, creatorKey: 'NOVA1' });
    expect(await answered(unity, 'picker.confirm', { picker: 1 })).toMatchObject({ ok: true, value: null });
    expect(pickerStates(unity).at(-1)).toMatchObject({ selected: 'NOVA1', canConfirm: false, cooldownDays: 20 });
    expect(emulator.state().boosts).toContainEqual(expect.objectContaining({ userId: DEMO_USERS.inCooldown, creatorKey: 'PIXEL' }));

    await answered(unity, 'picker.dispose', { picker: 1 });
    expect(await answered(unity, 'picker.search', { picker: 1, query: 'x' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(unity.live.size).toBe(0);
  });

  it('uses the handle C# chose (C# registers it before sending picker.open) and refuses one already open', async () => {
    const { unity } = await initialized(DEMO_USERS.changeable);
    expect(await answered(unity, 'picker.open', { picker: 7, campaignId: DEMO_ACTIVE_CAMPAIGN_ID })).toMatchObject({ ok: true, value: { picker: 7 } });
    const changes = unity.messages.filter((m) => m['event'] === 'picker:change');
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((m) => m['picker'] === 7)).toBe(true);
    expect(await answered(unity, 'picker.open', { picker: 7, campaignId: DEMO_ACTIVE_CAMPAIGN_ID })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    await answered(unity, 'picker.dispose', { picker: 7 });
    expect(unity.live.size).toBe(0);
  });

  it('an Init for another player ends the last player\'s pickers, as dispose does: their handles are gone (NOT_FOUND), nothing is boosted for either', async () => {
    const { unity, emulator } = await initialized(DEMO_USERS.changeable);
    await answered(unity, 'picker.open', { picker: 3, campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    await answered(unity, 'picker.select', { picker: 3, creatorKey: 'NOVA1' });
    expect(await answered(unity, 'init', page!.initOptions('player-2'))).toMatchObject({ ok: true });
    expect(await answered(unity, 'picker.confirm', { picker: 3 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await answered(unity, 'picker.search', { picker: 3, query: 'Nova' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(emulator.state().boosts).not.toContainEqual(expect.objectContaining({ creatorKey: 'NOVA1' }));
    expect(unity.live.size).toBe(0);
  });

  it('a picker out of the cooldown boosts the selected creator; C# gets the new boost', async () => {
    const { unity, emulator } = await initialized(DEMO_USERS.changeable);
    await answered(unity, 'picker.open', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    await answered(unity, 'picker.select', { picker: 1, creatorKey: 'NOVA1' });
    expect(pickerStates(unity).at(-1)).toMatchObject({ selected: 'NOVA1', canConfirm: true });
    const confirmed = await answered(unity, 'picker.confirm', { picker: 1, callbackId: 'unity-boost-1' });
    expect(confirmed).toMatchObject({ ok: true, value: { userId: DEMO_USERS.changeable, creatorKey: 'NOVA1', isActive: true } });
    expect(pickerStates(unity).at(-1)).toMatchObject({ boost: { creatorKey: 'NOVA1' }, confirming: false, cooldownDays: 30 });
    expect(emulator.state().boosts).toContainEqual(expect.objectContaining({ userId: DEMO_USERS.changeable, creatorKey: 'NOVA1' }));
    expect(unity.live.size).toBe(0);
  });

  it('opens the web view with a one-time token for the player, closes it, and tells C# it closed', async () => {
    const { unity, emulator } = await initialized('player-1');
    expect(await answered(unity, 'webview.open', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID, showCampaignDetail: true })).toMatchObject({ ok: true, value: null });
    expect(emulator.state().webview.tokens).toMatchObject([{ userId: 'player-1' }]);
    expect(unity.messages.some((m) => m['event'] === 'webview:closed')).toBe(false);
    await answered(unity, 'webview.close');
    expect(unity.messages.filter((m) => m['event'] === 'webview:closed')).toEqual([{ event: 'webview:closed', data: null }]);
    await answered(unity, 'dispose');
    expect(await answered(unity, 'webview.open', {})).toMatchObject({ ok: false, error: { code: 'NOT_INITIALIZED' } });
    expect(unity.live.size).toBe(0);
  });

  it('WebView.Close while the web view is still opening (the player went back) shows nothing, and tells C# it closed', async () => {
    // Before, Close reached only a page already shown: the one on its way appeared once its token arrived.
    const { unity, window } = await initialized('player-1');
    const opening = unity.request('webview.open', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    const closing = unity.request('webview.close');
    await vi.advanceTimersByTimeAsync(1_000);
    expect([await opening, await closing]).toMatchObject([{ ok: true, value: null }, { ok: true, value: null }]);
    expect((window['document'] as Document).querySelector('iframe')).toBeNull();
    expect(unity.messages.filter((m) => m['event'] === 'webview:closed')).toEqual([{ event: 'webview:closed', data: null }]);
  });
  it("tells C# Closed only for the web view opened last: not for the one a second Open replaced, nor for a failed Open's", async () => {
    // Before, WebView.Closed was raised as a second Open replaced the first, while the second showed.
    const { unity, window } = await initialized('player-1');
    const closedEvents = () => unity.messages.filter((m) => m['event'] === 'webview:closed').length;
    expect(await answered(unity, 'webview.open', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID })).toMatchObject({ ok: true });
    expect(await answered(unity, 'webview.open', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID })).toMatchObject({ ok: true });
    expect((window['document'] as Document).querySelectorAll('iframe')).toHaveLength(1);
    expect(closedEvents()).toBe(0);
    // An Open that fails leaves the page before it the one opened last.
    expect(await answered(unity, 'webview.open', { metadata: 'not an object' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
    expect(closedEvents()).toBe(0);
    await answered(unity, 'webview.close');
    expect(closedEvents()).toBe(1);
    // A double tap whose second Open fails: the first is not shown (a later one was asked for), and C# hears it closed.
    const first = unity.request('webview.open', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    const second = unity.request('webview.open', { metadata: 'not an object' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect([await first, await second]).toMatchObject([{ ok: true }, { ok: false, error: { code: 'VALIDATION_ERROR' } }]);
    expect((window['document'] as Document).querySelector('iframe')).toBeNull();
    expect(closedEvents()).toBe(2);
  });
});
