/**
 * The guide's minimum, React Native 0.70, on its own toolchain: the story app (app/index.js, the same app, stand-ins
 * and device as stories.test.ts) bundled by Metro 0.72.3 with metro-react-native-babel-preset 0.72.3 and
 * metro-react-native-babel-transformer 0.72.3 (what React Native 0.70's CLI and template use: release, minified
 * by that Metro's uglify-es; no package exports in that Metro, so `game-campaign-sdk/react-native` resolves through
 * the classic `react-native/package.json` sub-folder), compiled by the Hermes 0.12 VM's own `hermesc` and run on
 * that VM, with the real abort-controller 3.0.0 React Native 0.70 installs (no `signal.reason`: app/device.js) and
 * the JavaScript of the modules such an app installs: AsyncStorage 1.17.3 with NetInfo 9.3.5 (Expo SDK 47's pair)
 * or AsyncStorage 2.2.0 with NetInfo 11.4.1 (the guide's bare React Native 0.70 lines), and
 * react-native-get-random-values 1.11.0 (the guide's 1.x for React Native 0.70 to 0.80): delivered once, killed and
 * recovered, offline then online, background not counted, dispose leaving nothing, a request with no answer.
 * Runs after the build (`npm test` builds first).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { bundleStoryApp, expectNoAnswer, outcomeOf, runStory } from './hermes.js';

const ROOT = join(import.meta.dirname, '../../../..');
// A story compiles and runs the VM (two runs for a restart), each under its own 20 s limit: room for a loaded machine.
vi.setConfig({ testTimeout: 90_000 });
const MINUTES = 60;
let bundle = '';

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/react-native.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
  bundle = await bundleStoryApp({ packageExports: false, toolchain: 'rn-0.70' });
}, 120_000);

const EXPO_SDK_47 = { storage: 'v1.17', netInfo: 'v9', random: 'v1.11' } as const;
const BARE = { storage: 'v2', netInfo: 'v11', random: 'v1.11' } as const;
const story = (input: Parameters<typeof runStory>[1]) => runStory(bundle, { ...EXPO_SDK_47, ...input }).then(outcomeOf);

describe('React Native 0.70 on its own toolchain (Metro 0.72.3, Hermes 0.12, abort-controller 3.0.0)', () => {
  it.each([
    ['AsyncStorage 1.17.3, NetInfo 9.3.5', EXPO_SDK_47],
    ['AsyncStorage 2.2.0, NetInfo 11.4.1', BARE],
  ] as const)('start then stop: the relay gets the session once (%s)', async (_name, modules) => {
    const run = await story({ story: 'delivered-once', ...modules });
    expect(run.outcome.ends).toEqual([{ reason: 'stop', durationSeconds: 5 * MINUTES }]);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 5 * MINUTES, campaignId: 'spring-event' })]);
    expect(run.answered).toEqual(['SUCCESS']);
    expect(run.outcome.errors).toEqual([]);
  });

  it('killed mid-session: the next start recovers the session from its last checkpoint and delivers it once', async () => {
    const killed = await story({ story: 'killed' });
    expect(killed.delivered).toEqual([]);
    const restarted = await story({ story: 'restarted', disk: killed.disk, delivered: killed.delivered, seed: 2 });
    expect(restarted.outcome.ends).toEqual([{ reason: 'recovered', durationSeconds: 2 * MINUTES }]);
    expect(restarted.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
    expect(restarted.answered).toEqual(['SUCCESS']);
  });

  it('offline at stop: nothing is sent; when NetInfo reports the network back, the session is delivered without a call from the game', async () => {
    const run = await story({ story: 'offline-then-online' });
    expect(run.outcome.deliveredOffline).toBe(0);
    expect(run.outcome.deliveredOnline).toBe(1);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 1 * MINUTES })]);
  });

  it('time in the background (AppState) is not counted', async () => {
    const run = await story({ story: 'background' });
    expect(run.outcome.ends).toEqual([{ reason: 'stop', durationSeconds: 2 * MINUTES }]);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
  });

  it('dispose() leaves no AppState or NetInfo subscription and no timer; later OS events send nothing', async () => {
    const run = await story({ story: 'dispose' });
    expect(run.outcome.live).toMatchObject({ appState: 1, netInfo: 1 });
    expect(run.outcome.left).toEqual({ appState: 0, netInfo: 0, timers: 0 });
    expect(run.outcome.requestsAfter).toBe(0);
  });

  it('no answer at all (no signal.reason): a read fails with TimeoutError saying how long it waited, and the tracker reports the relay unreachable with that cause', async () => {
    expectNoAnswer(await story({ story: 'no-answer' }), 1);
  });
});
