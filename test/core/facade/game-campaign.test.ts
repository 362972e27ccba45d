/**
 * The facade on a memory platform: reads go to the API with the Client key through the platform's fetch,
 * play sessions go through the relay (which holds the Server key) to the emulator, all in-process.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGameCampaign } from '../../../core/game-campaign.js';
import { ValidationError } from '../../../core/http/errors.js';
import { createMemoryPlatform } from '../../../core/memory-platform.js';
import { createRelay } from '../../../core/relay/index.js';
import { CampaignServer } from '../../../core/server/index.js';
import { createEmulator, DEMO_ACTIVE_CAMPAIGN_ID, DEMO_USERS, type Emulator } from '../../../emulator/index.js';

const API = 'http://emulator.local';
const RELAY = 'http://game.local/campaign';
let emulator: Emulator | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await emulator?.close();
  emulator = undefined;
});

function setup() {
  const emu = (emulator = createEmulator());
  const server = new CampaignServer({ serverKey: emu.serverKey, environment: { baseUrl: API }, fetch: emu.fetch, maxRetries: 0 });
  const relay = createRelay({ server, authenticate: (request) => (request.headers.get('authorization') === 'Bearer player-1-token' ? { userId: 'player-1' } : null) });
  const seen: string[] = [];
  const platform = createMemoryPlatform({
    fetch: (input, init) => {
      const request = new Request(input, init);
      seen.push(`${request.method} ${request.url}`);
      return request.url.startsWith(RELAY) ? relay.fetch(request) : emu.fetch(request);
    },
  });
  const gc = createGameCampaign({
    platform,
    clientKey: emu.clientKey,
    environment: { baseUrl: API },
    relay: { url: RELAY, headers: { authorization: 'Bearer player-1-token' } },
    userId: 'player-1',
  });
  return { emu, platform, gc, seen };
}

describe('createGameCampaign', () => {
  it('reads campaigns through the platform fetch with the Client key', async () => {
    const { gc, seen } = setup();
    const campaign = await gc.campaigns.get(DEMO_ACTIVE_CAMPAIGN_ID);
    expect(campaign.campaignId).toBe(DEMO_ACTIVE_CAMPAIGN_ID);
    expect(seen).toEqual([`GET ${API}/v1/client/campaigns/${DEMO_ACTIVE_CAMPAIGN_ID}`]);
    await gc.dispose();
  });

  it('records a play session for its user through the relay', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { emu, gc } = setup();
    const sessionId = gc.tracker.start({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    await vi.advanceTimersByTimeAsync(5_000);
    await gc.tracker.stop();
    // The relay waits its coalescing window (a timer) before it calls the service.
    const flushed = gc.tracker.flush();
    await vi.advanceTimersByTimeAsync(1_000);
    await flushed;
    const recorded = emu.state().sessions.filter((s: { sessionId: string }) => s.sessionId === sessionId);
    expect(recorded).toMatchObject([{ userId: 'player-1', durationSeconds: 5 }]);
    await gc.dispose();
  });

  it('holds boost, webview and picker, and dispose closes the web view and stops every picker', async () => {
    const { gc, platform } = setup();
    const view = await gc.webview.open();
    expect(platform.opened).toHaveLength(1);
    const picker = gc.picker({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    await new Promise<void>((resolve) => picker.on('change', (state) => !state.loading && resolve()));
    const listener = vi.fn();
    picker.on('change', listener);
    await gc.dispose();
    await expect(view.closed).resolves.toBeUndefined();
    picker.select('NOVA1');
    expect(listener).not.toHaveBeenCalled();
  });

  it('refuses gc.picker() after dispose(), as tracker.start() is refused, instead of a live picker loading through the disposed SDK that nothing disposes (every entry: browser, Cocos, React Native)', async () => {
    const { gc, seen } = setup();
    await gc.dispose();
    expect(() => gc.tracker.start()).toThrow('after dispose()');
    expect(() => gc.picker({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID })).toThrow(new TypeError('gc: called after dispose()'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([]);
  });

  it('refuses gc.webview.open() after dispose() with a rejection, as gc.picker() is refused, instead of spending a token on a page nothing will close (every entry: browser, Cocos, React Native)', async () => {
    const { gc, platform, seen } = setup();
    await gc.dispose();
    await expect(gc.webview.open()).rejects.toThrow(new TypeError('gc: called after dispose()'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([]);
    expect(platform.opened).toEqual([]);
  });

  it('refuses gc.boost.change() after dispose() with a rejection, as gc.webview.open() is refused, instead of changing the player\'s boost through a disposed SDK', async () => {
    const { gc, seen } = setup();
    await gc.dispose();
    await expect(gc.boost.change({ newCreatorKey: 'LUNA7' })).rejects.toThrow(new TypeError('gc: called after dispose()'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([]);
  });

  it('refuses after dispose() the methods a game saved before it (gc.webview.open bound, boost.change and gc.picker taken off their objects): each asks when called, not when taken', async () => {
    const { gc, platform, seen } = setup();
    const open = gc.webview.open.bind(gc.webview);
    const { change } = gc.boost;
    const { picker } = gc;
    await gc.dispose();
    await expect(open()).rejects.toThrow(new TypeError('gc: called after dispose()'));
    await expect(change({ newCreatorKey: 'LUNA7' })).rejects.toThrow(new TypeError('gc: called after dispose()'));
    expect(() => picker({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID })).toThrow(new TypeError('gc: called after dispose()'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([]);
    expect(platform.opened).toEqual([]);
  });

  it('still refuses a web view the platform cannot show with the platform\'s error (the launcher asks before any token), and opens one after a close()', async () => {
    const { gc, platform, seen } = setup();
    const unavailable = new Error('no web view here');
    Object.assign(platform, { webViewUnavailable: () => unavailable });
    await expect(gc.webview.open()).rejects.toBe(unavailable);
    expect(seen).toEqual([]);
    Object.assign(platform, { webViewUnavailable: undefined });
    gc.webview.close();
    await gc.webview.open();
    expect(platform.opened).toHaveLength(1);
    await gc.dispose();
  });

  it('refuses a picker without a campaign', async () => {
    const { gc } = setup();
    expect(() => gc.picker({ campaignId: '' })).toThrow(ValidationError);
    await gc.dispose();
  });

  it('aborts the Client API request of a stale picker search', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const emu = (emulator = createEmulator());
    const searches: Array<{ url: string; signal: AbortSignal | undefined }> = [];
    const platform = createMemoryPlatform({
      fetch: (input, init) => {
        const request = new Request(input, init);
        if (!request.url.includes('/creators/search')) return emu.fetch(request);
        searches.push({ url: request.url, signal: init?.signal ?? undefined });
        return new Promise<Response>(() => undefined); // the slow answer never comes on its own
      },
    });
    const gc = createGameCampaign({ platform, clientKey: emu.clientKey, environment: { baseUrl: API }, relay: { url: RELAY }, userId: 'player-1' });
    const picker = gc.picker({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    picker.search('lu');
    await vi.advanceTimersByTimeAsync(250);
    picker.search('luna');
    await vi.advanceTimersByTimeAsync(250);
    expect(searches.map((s) => new URL(s.url).searchParams.get('q'))).toEqual(['lu', 'luna']);
    expect(searches.map((s) => s.signal?.aborted)).toEqual([true, false]);
    await gc.dispose();
    expect(searches[1]!.signal?.aborted).toBe(true);
  });

  it("judges a picker's cooldown by the clock the game passes (a server-synchronised one), else the platform's", async () => {
    const emu = (emulator = createEmulator());
    const platform = createMemoryPlatform({ fetch: (input, init) => emu.fetch(new Request(input, init)) });
    const gc = createGameCampaign({ platform, clientKey: emu.clientKey, environment: { baseUrl: API }, relay: { url: RELAY }, userId: DEMO_USERS.inCooldown });
    const loaded = (picker: ReturnType<typeof gc.picker>) => new Promise<void>((resolve) => (picker.state.loading ? picker.on('change', (state) => !state.loading && resolve()) : resolve()));
    const onDevice = gc.picker({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    const serverTime = gc.picker({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID, now: () => Date.now() + 30 * 86_400_000 });
    await Promise.all([loaded(onDevice), loaded(serverTime)]);
    expect(onDevice.state.cooldownDays).toBe(20);
    expect(serverTime.state.cooldownDays).toBeUndefined();
    onDevice.select('RIVER');
    serverTime.select('RIVER');
    expect([onDevice.state.canConfirm, serverTime.state.canConfirm]).toEqual([false, true]);
    await gc.dispose();
  });

  // A game in plain JavaScript that imports the main entry where its adapter's was meant passes no platform.
  it("names the adapter entries when no platform is given (the main entry imported in place of an adapter's)", () => {
    const options = { clientKey: 'ck_1:s', relay: { url: RELAY }, userId: 'player-1' } as unknown as Parameters<typeof createGameCampaign>[0];
    expect(() => createGameCampaign(options)).toThrow(new TypeError("createGameCampaign from 'game-campaign-sdk' needs { platform }: import it from your adapter's entry instead (game-campaign-sdk/browser, /cocos or /react-native), which fills it in"));
  });

  it('says what an environment must be when its baseUrl is no http(s) address', () => {
    const options = { platform: createMemoryPlatform(), clientKey: 'ck_1:s', relay: { url: RELAY }, userId: 'player-1' };
    expect(() => createGameCampaign({ ...options, environment: { baseUrl: 'localhost:8787' } })).toThrow(
      new TypeError(`Unknown environment {"baseUrl":"localhost:8787"}: use 'live', 'sandbox' or { baseUrl: 'https://…' } with no query or fragment`),
    );
  });

  it('refuses a malformed Client key at creation', () => {
    expect(() => createGameCampaign({ platform: createMemoryPlatform(), clientKey: 'no-colon', relay: { url: RELAY }, userId: 'player-1' })).toThrow(TypeError);
  });

  // `clientKey: process.env.CLIENT_KEY` with the variable unset: the message says so rather than only the key's form.
  it.each([undefined, ''])('says a Client key given as %j is missing', (clientKey) => {
    expect(() => createGameCampaign({ platform: createMemoryPlatform(), clientKey: clientKey as string, relay: { url: RELAY }, userId: 'player-1' })).toThrow(
      new TypeError('Client key missing: must have the form <key_id>:<secret>'),
    );
  });

  it('refuses at creation a relay url with no scheme, naming the forms it takes', () => {
    expect(() => createGameCampaign({ platform: createMemoryPlatform(), clientKey: 'ck_1:s', relay: { url: 'game.example/campaign' }, userId: 'player-1' })).toThrow(
      'Invalid request: options.relay.url must be https://… or /path with no query or fragment',
    );
  });
});
