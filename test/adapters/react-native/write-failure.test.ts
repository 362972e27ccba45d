/**
 * Issue 21 item 7 on the real packages: storage that throws on write when the session stops (a full disk) does
 * not lose it: the app closes, and the next start recovers the session and delivers it once. Each async-storage
 * build (2.2.0 and 3.1.1 jest mocks and web builds) holds the data; its writes are made to throw.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGameCampaign, type GameCampaign } from '../../../core/game-campaign.js';
import { createReactNativePlatform, type ReactNativeModules } from '../../../adapters/react-native/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, type Emulator } from '../../../emulator/index.js';
import { API_URL, killable, RELAY_URL, startService, TOKEN, USER } from '../platform-contract.js';
import { realReactNativeDevice, type RealStorage } from './real-devices.js';
import type { RealAsyncStorage } from './real-packages.js';

const FAKE_TIMERS: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] };

/** The real store, whose `setItem` rejects while `failing()` (the package's own error for a full disk). */
function failingWrites<S extends RealAsyncStorage>(store: S, failing: () => boolean): S {
  return Object.assign(Object.create(store) as S, {
    setItem: (key: string, value: string) => (failing() ? Promise.reject(new Error('[AsyncStorage] database or disk is full')) : store.setItem(key, value)),
  });
}

/** `modules.AsyncStorage` as the app passes it, its writes failing while `failing()`. */
function withFailingWrites(asyncStorage: ReactNativeModules['AsyncStorage'], failing: () => boolean): ReactNativeModules['AsyncStorage'] {
  const module = asyncStorage as Partial<{ createAsyncStorage(name: string): RealAsyncStorage; default: RealAsyncStorage; getItem: unknown }>;
  if (typeof module.createAsyncStorage === 'function') return { ...module, createAsyncStorage: (name: string) => failingWrites(module.createAsyncStorage!(name), failing) } as ReactNativeModules['AsyncStorage'];
  if (typeof module.getItem === 'function') return failingWrites(asyncStorage as RealAsyncStorage, failing) as ReactNativeModules['AsyncStorage'];
  return { ...module, default: failingWrites(module.default!, failing) } as ReactNativeModules['AsyncStorage'];
}

let emulator: Emulator | undefined;
const created: GameCampaign[] = [];
afterEach(async () => {
  for (const gc of created.splice(0)) await gc.dispose().catch(() => undefined);
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await emulator?.close();
  emulator = undefined;
});

describe.each(['v2 jest mock', 'v2 web', 'v3 jest mock', 'v3 web'] as RealStorage[])('React Native on real packages (AsyncStorage %s): a failed write', (storage) => {
  it('the session whose queue write failed is recovered after the app closes, and recorded once', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const { emu, handler } = startService();
    emulator = emu;
    const device = realReactNativeDevice(storage, 'own JS');
    const options = { clientKey: emu.clientKey, environment: { baseUrl: API_URL }, relay: { url: RELAY_URL, headers: { authorization: TOKEN } }, userId: USER, tracker: { campaignId: DEMO_ACTIVE_CAMPAIGN_ID } };

    let failing = false;
    const run1 = device.start(handler);
    const process1 = killable(createReactNativePlatform({ modules: { ...run1.modules, AsyncStorage: withFailingWrites(run1.modules.AsyncStorage, () => failing) } }));
    const gc1 = createGameCampaign({ ...options, platform: process1.platform });
    created.push(gc1);
    await vi.advanceTimersByTimeAsync(100);
    const played = gc1.tracker.start();
    await vi.advanceTimersByTimeAsync(20_000); // checkpointed at 15 s
    failing = true;
    await gc1.tracker.stop().catch(() => undefined);
    await vi.advanceTimersByTimeAsync(100);
    process1.kill(); // the app closes

    const run2 = device.start(handler);
    const gc2 = createGameCampaign({ ...options, platform: run2.platform });
    created.push(gc2);
    await vi.advanceTimersByTimeAsync(2_000);
    const flush = gc2.tracker.flush();
    await vi.advanceTimersByTimeAsync(1_000);
    await flush;
    const sessions = (emu.state().sessions as Array<{ userId: string; sessionId: string; durationSeconds: number }>).filter((s) => s.userId === USER);
    expect(sessions.map((s) => s.sessionId)).toEqual([played]);
    expect([15, 20]).toContain(sessions[0]!.durationSeconds);
  });
});
