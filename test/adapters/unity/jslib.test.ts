/**
 * The WebGL plugin (GameCampaign.jslib) in a fake Unity runtime, over the built IIFE, a real relay and the
 * emulator: what reaches the C# callback, and that every string it allocates is freed.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'acorn';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_USERS } from '../../../emulator/index.js';
import { createBridgePage, JSLIB } from './bridge-page.js';
import { createFakeUnityRuntime, DYN_CALL_STYLES, type DynCallStyle, type FakeUnityRuntime } from './fake-unity-runtime.js';

let page: ReturnType<typeof createBridgePage> | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await page?.close();
  page = undefined;
});

function setup(dynCall: DynCallStyle = 'table') {
  page = createBridgePage(dynCall);
  return { emu: page.emulator, unity: page.unity };
}

function initOptions(userId: string) {
  return page!.initOptions(userId);
}

/** Runs `request` while fake time passes (the relay coalesces for 50 ms, the tracker measures seconds). */
async function answered(unity: FakeUnityRuntime, method: string, args?: unknown, advanceMs = 1_000) {
  const answer = unity.request(method, args);
  await vi.advanceTimersByTimeAsync(advanceMs);
  return answer;
}

describe('GameCampaign.jslib', () => {
  it('parses as ES5, as Unity requires of a .jslib', () => {
    const source = readFileSync(JSLIB, 'utf8').replace(/\{\{\{[\s\S]*?\}\}\}/g, 'makeDynCallExpanded');
    expect(() => parse(source, { ecmaVersion: 5, sourceType: 'script' })).not.toThrow();
    // A check that can fail: an arrow function is not ES5.
    expect(() => parse(`${source}\nvar f = () => 1;`, { ecmaVersion: 5, sourceType: 'script' })).toThrow();
  });

  it('uses only the non-deprecated Unity interop (no dynCall(), Pointer_stringify, unity.Instance, gameInstance)', () => {
    const code = readFileSync(JSLIB, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).not.toMatch(/\bdynCall\s*\(|Pointer_stringify|unity\.Instance|gameInstance/);
    expect(code).toMatch(/\{\{\{ makeDynCall\('vi', 'GameCampaignBridge\.callback'\) \}\}\}/);
  });

  for (const style of DYN_CALL_STYLES) {
    it(`start, stop, flush -> one session recorded for the player, events in C# (makeDynCall as ${style})`, async () => {
      // Only the clocks are fake (play time); I/O and the relay's coalescing window run on real timers.
      vi.useFakeTimers({ toFake: ['Date', 'performance'] });
      const { emu, unity } = setup(style);
      expect(await answered(unity, 'init', initOptions('player-1'))).toEqual({ id: 1, ok: true, value: null });
      const started = await answered(unity, 'tracker.start', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID }, 0);
      expect(started).toMatchObject({ ok: true, value: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await answered(unity, 'tracker.stop')).toMatchObject({ ok: true, value: null });
      expect(await answered(unity, 'tracker.flush')).toMatchObject({ ok: true, value: null });

      const sessionId = started['value'] as string;
      const recorded = emu.state().sessions.filter((s: { sessionId: string }) => s.sessionId === sessionId);
      expect(recorded).toMatchObject([{ userId: 'player-1', durationSeconds: 5, campaignId: DEMO_ACTIVE_CAMPAIGN_ID }]);
      const events = unity.messages.filter((m) => m['event']);
      expect(events.map((e) => e['event'])).toEqual(['session:start', 'session:end', 'flushed']);
      expect(events[2]).toEqual({ event: 'flushed', data: { results: [{ sessionId, status: 'SUCCESS' }] } });
      expect(unity.live.size).toBe(0);
      expect(unity.allocations).toBeGreaterThan(10);
      expect(unity.sentMessages).toEqual([]);
      expect(unity.linked.sort()).toEqual(['$GameCampaignBridge', 'GameCampaign_Call', 'GameCampaign_Register']);
    });
  }

  it('the off switch and erasure from C#: opted out nothing is recorded (dropped opted-out), erasure drops the running session', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    const { emu, unity } = setup();
    await unity.request('init', initOptions('player-1'));
    await unity.request('tracker.start', {});
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await answered(unity, 'tracker.optOut', { optOut: true })).toMatchObject({ ok: true, value: null });
    expect(await answered(unity, 'tracker.start', {}, 0)).toMatchObject({ ok: true, value: '' });
    expect(await answered(unity, 'tracker.optOut', { optOut: false })).toMatchObject({ ok: true, value: null });
    const kept = await answered(unity, 'tracker.start', {}, 0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await answered(unity, 'tracker.deleteStoredData')).toMatchObject({ ok: true, value: null }); // the running session
    await answered(unity, 'tracker.stop');
    await answered(unity, 'tracker.flush');
    const dropped = unity.messages.filter((m) => m['event'] === 'dropped').map((m) => (m['data'] as { reason: string; sessionId: string }));
    expect(dropped.map((d) => d.reason)).toEqual(['opted-out', 'erased']);
    expect(dropped[1]!.sessionId).toBe(kept['value']);
    expect(emu.state().sessions).toEqual([]);
  });

  it('finds window.GameCampaign and both siblings from the .jspre alone, the siblings evaluated on first use', () => {
    page = createBridgePage();
    const { window } = page;
    expect(typeof (window['GameCampaign'] as Record<string, unknown>)['createGameCampaign']).toBe('function');
    for (const name of ['GameCampaignWebView', 'GameCampaignSha256']) {
      expect(Object.getOwnPropertyDescriptor(window, name)?.get, name).toBeTypeOf('function');
      expect(window[name], name).toBeTypeOf('object'); // evaluated now, then kept as a plain value
      expect(Object.getOwnPropertyDescriptor(window, name)?.get, name).toBeUndefined();
    }
  });

  it('a boost change during the cooldown reaches C# as an error with daysRemaining', async () => {
    const { unity } = setup();
    await unity.request('init', initOptions(DEMO_USERS.inCooldown));
    const answer = await unity.request('boost.change', { newCreatorKey: 'NOVA1', campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    expect(answer).toEqual({
      id: 2,
      ok: false,
      error: { name: 'BoostCooldownError', code: 'BAD_REQUEST', status: 400, message: 'Boost can be changed again in 20 days', daysRemaining: 20 },
    });
    expect(unity.live.size).toBe(0);
  });

  it('a creator search answers the results as JSON; a bad query is a typed error', async () => {
    const { unity } = setup();
    await unity.request('init', initOptions('player-1'));
    const found = await unity.request('creators.search', { query: 'Luna', limit: 5 });
    expect(found).toMatchObject({ ok: true, value: [{ creatorKey: 'LUNA7', creatorName: 'Luna Plays', genre: 'RPG' }] });
    const tooLong = await unity.request('creators.search', { query: 'x'.repeat(11) });
    expect(tooLong).toMatchObject({ ok: false, error: { name: 'ValidationError', code: 'VALIDATION_ERROR', details: [{ path: 'q' }] } });
    const campaign = await unity.request('campaigns.get', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    expect(campaign).toMatchObject({ ok: true, value: { campaignId: DEMO_ACTIVE_CAMPAIGN_ID, campaignName: { en: expect.any(String) } } });
    const missing = await unity.request('campaigns.get', { campaignId: 'cmp_missing' });
    expect(missing).toMatchObject({ ok: false, error: { name: 'NotFoundError', code: 'NOT_FOUND', status: 404 } });
    expect(unity.live.size).toBe(0);
  });

  it('answers calls before Init, unknown methods and a missing SDK script with typed errors', async () => {
    const { unity } = setup();
    expect(await unity.request('tracker.start', {})).toMatchObject({ ok: false, error: { code: 'NOT_INITIALIZED' } });
    await unity.request('init', initOptions('player-1'));
    const before = unity.messages.length;
    const unknown = unity.request('nope', {});
    expect(unity.messages.length).toBe(before); // answered from a later task, never inside the C# -> JS call
    expect(await unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    const bare = createFakeUnityRuntime({ jslibPath: JSLIB, window: {} });
    expect(await bare.request('init', initOptions('player-1'))).toMatchObject({ ok: false, error: { code: 'NOT_LOADED', message: expect.stringContaining('WebGL template') } });
    expect(unity.live.size + bare.live.size).toBe(0);
  });

  it('GameCampaign.Dispose() twice (OnDestroy, then OnApplicationQuit) and before Init resolves, never NOT_INITIALIZED', async () => {
    const { unity } = setup();
    expect(await unity.request('dispose')).toMatchObject({ ok: true, value: null });
    await unity.request('init', initOptions('player-twice'));
    const first = unity.request('dispose');
    const second = unity.request('dispose');
    expect(await first).toMatchObject({ ok: true, value: null });
    expect(await second).toMatchObject({ ok: true, value: null });
    expect(await unity.request('tracker.start', {})).toMatchObject({ ok: false, error: { code: 'NOT_INITIALIZED' } });
    expect(unity.live.size).toBe(0);
  });

  it('GameCampaign.Dispose() as the player leaves sends the running session within the C# call, in one keepalive request (the page\'s exit)', async () => {
    // A Unity WebGL game's Quit button (or a beforeunload hook into C#) disposes before the page goes: the bridge calls
    // gc.dispose() inside GameCampaign_Call, so the request is on its way before C# regains control, as the page's own
    // exit sends it (core/tracker/tracker.ts dispose: Lifecycle.pageExit).
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    const { emu, unity } = setup();
    const sent: Array<{ url: string; keepalive: boolean; body: string }> = [];
    const answers: Array<Promise<Response>> = [];
    const pageFetch = page!.window['fetch'] as (input: string | Request, init?: RequestInit) => Promise<Response>;
    page!.window['fetch'] = (input: string | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push({ url: request.url, keepalive: init?.keepalive ?? request.keepalive, body: typeof init?.body === 'string' ? init.body : '' });
      const answer = pageFetch(input, init);
      answers.push(answer);
      return answer;
    };
    await answered(unity, 'init', initOptions('player-leaving'));
    await answered(unity, 'tracker.flush'); // the start-up is done (IndexedDB read): before it, nothing is sent
    const started = await answered(unity, 'tracker.start', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID }, 0);
    const sessionId = started['value'] as string;
    await vi.advanceTimersByTimeAsync(6_000);
    const before = sent.length;

    const disposed = unity.request('dispose');
    const exit = sent.slice(before);
    expect(exit).toEqual([{ url: expect.stringMatching(/^http:\/\/game\.local\/campaign\//), keepalive: true, body: expect.stringContaining(sessionId) }]);
    expect(await disposed).toMatchObject({ ok: true, value: null });
    expect((await answers[answers.length - 1])!.status).toBe(200);
    expect(emu.state().sessions.filter((s: { sessionId: string }) => s.sessionId === sessionId)).toMatchObject([{ userId: 'player-leaving', durationSeconds: 6 }]);
  });

  it('new relay headers from C# are used by the next relay request (a refreshed token)', async () => {
    const { unity } = setup();
    await unity.request('init', { ...initOptions(DEMO_USERS.inCooldown) });
    await unity.request('relay.headers', { headers: { authorization: `Bearer ${DEMO_USERS.changeable}` } });
    const answer = await unity.request('boost.change', { newCreatorKey: 'NOVA1', campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    expect(answer).toMatchObject({ ok: true, value: { userId: DEMO_USERS.changeable, creatorKey: 'NOVA1' } });
  });
});
