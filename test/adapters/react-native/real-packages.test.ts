/**
 * The React Native adapter on the real packages' own in-memory implementations (real-packages.ts), beside the
 * fakes of platforms.test.ts: the platform contract (its tracker story included) on both AsyncStorage major
 * lines (jest mocks and web builds) with NetInfo's jest mock and its own JS, a background flush story, the
 * store the SDK keeps its data in on 3.x (and the move of what 0.1.0 left in the legacy store), and NetInfo's
 * listener timing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGameCampaign, type GameCampaign } from '../../../core/game-campaign.js';
import { createReactNativePlatform } from '../../../adapters/react-native/index.js';
import type { Emulator } from '../../../emulator/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID } from '../../../emulator/index.js';
import { API_URL, describePlatformContract, killable, RELAY_URL, startService, TOKEN, USER } from '../platform-contract.js';
import { realReactNativeDevice, type RealNetInfoKind, type RealStorage } from './real-devices.js';
import * as real from './real-packages.js';

const STORAGES: RealStorage[] = ['v2 jest mock', 'v2 web', 'v3 jest mock', 'v3 web'];
for (const storage of STORAGES) describePlatformContract(`React Native on real packages: AsyncStorage ${storage}, NetInfo own JS`, () => realReactNativeDevice(storage, 'own JS'));
for (const storage of ['v2 jest mock', 'v3 web'] as const) describePlatformContract(`React Native on real packages: AsyncStorage ${storage}, NetInfo jest mock`, () => realReactNativeDevice(storage, 'jest mock'));

const FAKE_TIMERS: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] };
const trackerOptions = { clientKey: '', environment: { baseUrl: API_URL }, relay: { url: RELAY_URL, headers: { authorization: TOKEN } }, userId: USER, tracker: { campaignId: DEMO_ACTIVE_CAMPAIGN_ID } };
/** The play time the emulator recorded for this player, by session id. */
const recorded = (emu: Emulator) =>
  Object.fromEntries((emu.state().sessions as Array<{ userId: string; sessionId: string; durationSeconds: number }>).filter((s) => s.userId === USER).map((s) => [s.sessionId, s.durationSeconds]));

let emulator: Emulator | undefined;
/** Every SDK a test created, disposed after it even when it failed (a live one would hold the flush lock). */
const created: GameCampaign[] = [];
const track = (gc: GameCampaign) => (created.push(gc), gc);
afterEach(async () => {
  for (const gc of created.splice(0)) await gc.dispose().catch(() => undefined);
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await emulator?.close();
  emulator = undefined;
});

describe.each(STORAGES.flatMap((storage) => (['own JS', 'jest mock'] as RealNetInfoKind[]).map((netInfo) => [storage, netInfo] as const)))('React Native on real packages (AsyncStorage %s, NetInfo %s)', (storage, netInfo) => {
  it('going to the background pauses the running session and flushes the queue without keepalive; each session is recorded once', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const { emu, handler } = startService();
    emulator = emu;
    const run = realReactNativeDevice(storage, netInfo).start(handler);
    const gc = track(createGameCampaign({ ...trackerOptions, clientKey: emu.clientKey, platform: run.platform }));
    await vi.advanceTimersByTimeAsync(100);

    const a = gc.tracker.start();
    await vi.advanceTimersByTimeAsync(5_000);
    await gc.tracker.stop();
    const b = gc.tracker.start();
    await vi.advanceTimersByTimeAsync(4_000);
    run.background(); // b pauses; the background flush sends a
    await vi.advanceTimersByTimeAsync(10_000);
    expect(recorded(emu)).toEqual({ [a]: 5 });

    run.foreground();
    await vi.advanceTimersByTimeAsync(3_000);
    await gc.tracker.stop();
    const flush = gc.tracker.flush();
    await vi.advanceTimersByTimeAsync(1_000);
    await flush;
    expect(recorded(emu)).toEqual({ [a]: 5, [b]: 7 });
    expect(emu.state().sessions).toHaveLength(2);
  });
});

describe.each(['v3 jest mock', 'v3 web'] as const)('AsyncStorage 3.x (%s): the SDK keeps its data in its own store', (storage) => {
  it('with the module (import * as), the data goes to createAsyncStorage("game-campaign"), never the legacy default store', async () => {
    const device = realReactNativeDevice(storage, 'jest mock');
    const run = device.start(async () => new Response('{}'));
    const module = device.disk.module()!;
    expect('createAsyncStorage' in module.default).toBe(false); // the real default export is the legacy store
    await run.platform.storage.set('game-campaign:probe', { n: 1 });
    expect(await module.createAsyncStorage('game-campaign').getItem('game-campaign:probe')).toBe('{"n":1}');
    expect(await module.default.getAllKeys()).toEqual([]);
  });

  it("moves what SDK 0.1.0 left in the legacy store (its guide passed the default export): the queued and the running session are delivered once, the app's own keys stay", async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const { emu, handler } = startService();
    emulator = emu;
    const device = realReactNativeDevice(storage, 'own JS');
    const options = { ...trackerOptions, clientKey: emu.clientKey };

    // 0.1.0: modules.AsyncStorage was the default export, the app's legacy shared store.
    const run1 = device.start(handler);
    const legacy = device.disk.module()!.default;
    await legacy.setItem('app:theme', 'dark');
    const process1 = killable(createReactNativePlatform({ modules: { ...run1.modules, AsyncStorage: legacy } }));
    // 0.1.0's layout: every game under the shared `game-campaign` (an explicit storageKey keeps it exactly).
    const gc1 = track(createGameCampaign({ ...options, tracker: { ...options.tracker, storageKey: 'game-campaign' }, platform: process1.platform }));
    await vi.advanceTimersByTimeAsync(100);
    run1.setOnline(false);
    const queued = gc1.tracker.start();
    await vi.advanceTimersByTimeAsync(4_000);
    await gc1.tracker.stop();
    await gc1.tracker.flush();
    const running = gc1.tracker.start();
    await vi.advanceTimersByTimeAsync(20_000);
    process1.kill();
    expect(recorded(emu)).toEqual({});

    // The upgrade: the module, as the guide now has it.
    const run2 = device.start(handler);
    run2.setOnline(true);
    const gc2 = track(createGameCampaign({ ...options, platform: run2.platform }));
    await vi.advanceTimersByTimeAsync(2_000);
    const flush = gc2.tracker.flush();
    await vi.advanceTimersByTimeAsync(1_000);
    await flush;
    expect(recorded(emu)).toEqual({ [queued]: 4, [running]: 15 });
    expect(await device.disk.module()!.default.getAllKeys()).toEqual(['app:theme']);
  });
});

describe('NetInfo 12 (own JS and jest mock) under the adapter', () => {
  it('own JS: a new listener is called synchronously inside addEventListener once a state is known; the adapter follows every change', async () => {
    const native = real.netInfoNativeModule();
    const netInfo = real.netInfoJs(native);
    const first: boolean[] = [];
    netInfo.addEventListener((state) => first.push(state.isConnected === true));
    await netInfo.fetch();
    expect(first.length).toBeGreaterThanOrEqual(2); // the first listener hears each start-up fetch
    native.set(false);
    const heard: string[] = [];
    netInfo.addEventListener(() => heard.push('called'));
    heard.push('returned');
    expect(heard).toEqual(['called', 'returned']);

    // The adapter subscribing while the device is offline knows it at once, and hears it come back.
    vi.stubGlobal('crypto', undefined);
    const { modules } = realReactNativeDevice('v3 jest mock', 'jest mock').start(async () => new Response('{}'));
    const { network } = createReactNativePlatform({ modules: { ...modules, NetInfo: netInfo } });
    const changes: boolean[] = [];
    const off = network!.onChange((online) => changes.push(online));
    expect(network!.isOnline()).toBe(false);
    native.set(true);
    native.set(false);
    off();
    native.set(true);
    expect(changes).toEqual([true, false]);
    expect(network!.isOnline()).toBe(true); // re-subscribes: the current state, synchronously
  });

  it('jest mock: the listener is never called, so the adapter stays online and lets fetch fail; unsubscribing works', () => {
    vi.stubGlobal('crypto', undefined);
    const { modules } = realReactNativeDevice('v2 jest mock', 'jest mock').start(async () => new Response('{}'));
    const { network } = createReactNativePlatform({ modules });
    const changes: boolean[] = [];
    const off = network!.onChange((online) => changes.push(online));
    expect(network!.isOnline()).toBe(true);
    off();
    expect(changes).toEqual([]);
  });
});

describe("NetInfo 12's own JS: a connection that flaps", () => {
  /** A device on NetInfo's own JS whose relay requests are timed (ms from `mark()`) and fail while `reachable` is false. */
  const flappingDevice = () => {
    const { emu, handler } = startService();
    emulator = emu;
    const device = { emu, reachable: true, relayAt: [] as number[], t0: 0, mark: () => (device.t0 = Date.now()) };
    const run = realReactNativeDevice('v3 jest mock', 'own JS').start(async (request) => {
      if (request.url.startsWith(RELAY_URL)) {
        device.relayAt.push(Date.now() - device.t0);
        if (!device.reachable) throw new TypeError('Network request failed');
      }
      return handler(request);
    });
    const gc = track(createGameCampaign({ ...trackerOptions, clientKey: emu.clientKey, platform: run.platform, tracker: { ...trackerOptions.tracker, flushIntervalMs: 600_000 } }));
    return Object.assign(device, { run, gc });
  };

  it('each return of a flapping connection (no request gets through) waits out the backoff but the first; a return after an outage longer than it sends at once', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    vi.spyOn(Math, 'random').mockReturnValue(0.999); // each backoff wait at its ceiling: 999 ms, 1,998, 3,996, 7,992...
    const device = flappingDevice();
    const { emu, run, gc, relayAt } = device;
    await vi.advanceTimersByTimeAsync(100);
    run.setOnline(false);
    const id = gc.tracker.start();
    await vi.advanceTimersByTimeAsync(5_000);
    await gc.tracker.stop();

    // A train: NetInfo says connected for 1 s every 3 s, 20 times, and no request gets through.
    device.reachable = false;
    device.mark();
    for (let flip = 0; flip < 20; flip++) {
      run.setOnline(true);
      await vi.advanceTimersByTimeAsync(1_000);
      run.setOnline(false);
      await vi.advanceTimersByTimeAsync(2_000);
    }
    // Returns at 0 (no backoff yet), 3,000 (the wait was over) and 6,000 (the one skip of the wait, to 6,996); the
    // retry at 999 and 30,984 (online then); the retries at 2,997, 13,992 fell while offline. Was one request per return.
    expect(relayAt).toEqual([0, 999, 3_000, 6_000, 15_000, 30_984]);
    expect(recorded(emu)).toEqual({});

    // Out of coverage for longer than the backoff, then back where the relay answers: sent at once.
    await vi.advanceTimersByTimeAsync(300_000);
    device.reachable = true;
    device.mark();
    run.setOnline(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(relayAt.slice(6)).toEqual([0]);
    expect(recorded(emu)).toEqual({ [id]: 5 });
  });

  it('the first return after an outage sends at once, inside the backoff its failed requests set', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    const device = flappingDevice();
    const { emu, run, gc, relayAt } = device;
    await vi.advanceTimersByTimeAsync(100);
    const id = gc.tracker.start();
    await vi.advanceTimersByTimeAsync(5_000);
    await gc.tracker.stop();
    // The signal goes before NetInfo says so: four flushes fail, the backoff is now 15,984 ms.
    device.reachable = false;
    for (let i = 0; i < 4; i++) await gc.tracker.flush();
    run.setOnline(false);
    await vi.advanceTimersByTimeAsync(3_000);
    device.reachable = true;
    device.mark();
    run.setOnline(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(relayAt.slice(4)).toEqual([0]);
    expect(recorded(emu)).toEqual({ [id]: 5 });
  });
});
