/**
 * The fakes of fake-react-native.ts behave as the real packages do (their own JS, real-packages.ts), so the
 * tests on the fakes hold on a device: the same script, the same observations.
 */
import { describe, expect, it } from 'vitest';
import { createAsyncStorageV3Module, createFakeNetInfo } from '../fakes/fake-react-native.js';
import * as real from './real-packages.js';

/** When a NetInfo calls its listeners, relative to `addEventListener` returning, on first use and later. */
async function listenerTimeline(netInfo: { addEventListener(listener: (state: { isConnected: boolean | null }) => void): () => void }, goOffline: () => void) {
  const log: string[] = [];
  const offA = netInfo.addEventListener((state) => log.push(`a:${state.isConnected}`));
  log.push('a added');
  await new Promise((resolve) => setTimeout(resolve, 0));
  const offB = netInfo.addEventListener((state) => log.push(`b:${state.isConnected}`));
  log.push('b added');
  offA();
  goOffline();
  offB();
  goOffline();
  return log;
}

describe('fakes follow the real packages', () => {
  it('NetInfo 12: first use calls the listener later (once per start-up fetch, then once more); once a state is known, synchronously inside addEventListener', async () => {
    const native = real.netInfoNativeModule();
    const fake = createFakeNetInfo();
    const expected = await listenerTimeline(real.netInfoJs(native), () => native.set(false));
    expect(expected.slice(0, 5)).toEqual(['a added', 'a:true', 'a:true', 'a:true', 'b:true']);
    expect(await listenerTimeline(fake, () => fake.set({ isConnected: false, isInternetReachable: false }))).toEqual(expected);
  });

  it("NetInfo 12's jest mock never calls a listener and returns an unsubscribe function", async () => {
    const mock = real.netInfoJestMock();
    const log: unknown[] = [];
    const off = mock.addEventListener((state) => log.push(state));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([typeof off, log]).toEqual(['function', []]);
  });

  it('AsyncStorage 3.1.1: the default export (legacy store) has no createAsyncStorage; values are stored as given', async () => {
    for (const module of [real.asyncStorageV3JestMock(), createAsyncStorageV3Module()]) {
      expect(['createAsyncStorage' in module, 'createAsyncStorage' in module.default]).toEqual([true, false]);
      const store = module.createAsyncStorage('game-campaign');
      await store.setItem('n', 7 as never);
      expect(await store.getItem('n')).toBe(7);
    }
  });
});
