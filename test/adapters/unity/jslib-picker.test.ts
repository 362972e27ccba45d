/**
 * The jslib's picker and web view plumbing (handles, change events, errors as state, close): over a stand-in
 * facade that records what the jslib calls, because core's `gc.picker` and `gc.webview` are not on this branch
 * yet (wt-9). assumed: their shapes as DESIGN section 3 and the picker issue name them. When they land, the
 * lead should run these cases through createBridgePage() (the real IIFE) instead.
 */
import { describe, expect, it } from 'vitest';
import { JSLIB } from './bridge-page.js';
import { createFakeUnityRuntime } from './fake-unity-runtime.js';

function standIn() {
  const calls: string[] = [];
  const listeners: Array<(state: unknown) => void> = [];
  let closeWebView!: () => void;
  const picker = {
    state: { creators: [], query: '', results: [], canConfirm: false, confirming: false },
    on: (name: string, listener: (state: unknown) => void) => name === 'change' && listeners.push(listener),
    search: (query: string) => calls.push(`search ${query}`),
    select: (key: string) => calls.push(`select ${key}`),
    confirm: async () => {
      calls.push('confirm');
      const error = Object.assign(new Error('Boost can be changed again in 20 days'), { name: 'BoostCooldownError', code: 'BAD_REQUEST', status: 400, daysRemaining: 20 });
      for (const listener of listeners) listener({ ...picker.state, selected: 'NOVA1', canConfirm: false, cooldownDays: 20, error });
    },
    dispose: () => calls.push('dispose'),
  };
  const gc = {
    tracker: { on: () => undefined },
    picker: (options: { campaignId: string }) => (calls.push(`picker ${options.campaignId}`), picker),
    webview: {
      open: async (options: unknown) => {
        calls.push(`open ${JSON.stringify(options)}`);
        return { closed: new Promise<void>((resolve) => (closeWebView = resolve)), close: () => (calls.push('close'), closeWebView()) };
      },
    },
    dispose: async () => calls.push('gc.dispose'),
  };
  const window = { GameCampaign: { createGameCampaign: () => gc } };
  return { calls, unity: createFakeUnityRuntime({ jslibPath: JSLIB, window }) };
}

describe('GameCampaign.jslib picker and web view', () => {
  it('opens a picker by handle, forwards its changes with errors as records, and disposes it', async () => {
    const { calls, unity } = standIn();
    await unity.request('init', { clientKey: 'ck:s', userId: 'p', relay: { url: '/campaign' } });
    expect(await unity.request('picker.open', { campaignId: 'cmp_1' })).toMatchObject({ ok: true, value: { picker: 1, state: { query: '', canConfirm: false } } });
    await unity.request('picker.search', { picker: 1, query: 'nov' });
    await unity.request('picker.select', { picker: 1, creatorKey: 'NOVA1' });
    expect(await unity.request('picker.confirm', { picker: 1 })).toMatchObject({ ok: true, value: null });
    const change = unity.messages.find((m) => m['event'] === 'picker:change');
    expect(change).toEqual({
      event: 'picker:change',
      picker: 1,
      data: { creators: [], query: '', results: [], canConfirm: false, confirming: false, selected: 'NOVA1', cooldownDays: 20, error: { name: 'BoostCooldownError', code: 'BAD_REQUEST', status: 400, daysRemaining: 20, message: 'Boost can be changed again in 20 days' } },
    });
    await unity.request('picker.dispose', { picker: 1 });
    expect(await unity.request('picker.search', { picker: 1, query: 'x' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(calls).toEqual(['picker cmp_1', 'search nov', 'select NOVA1', 'confirm', 'dispose']);
    expect(unity.live.size).toBe(0);
  });

  it('opens the web view with the options C# gave, closes it, and tells C# when it closed', async () => {
    const { calls, unity } = standIn();
    await unity.request('init', { clientKey: 'ck:s', userId: 'p', relay: { url: '/campaign' } });
    expect(await unity.request('webview.open', { campaignId: 'cmp_1', showCampaignDetail: true })).toMatchObject({ ok: true, value: null });
    await unity.request('webview.close');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['open {"campaignId":"cmp_1","showCampaignDetail":true}', 'close']);
    expect(unity.messages.filter((m) => m['event'])).toEqual([{ event: 'webview:closed', data: null }]);
    await unity.request('dispose');
    expect(await unity.request('webview.open', {})).toMatchObject({ ok: false, error: { code: 'NOT_INITIALIZED' } });
    expect(calls.at(-1)).toBe('gc.dispose');
    expect(unity.live.size).toBe(0);
  });
});
