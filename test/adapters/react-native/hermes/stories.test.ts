/**
 * React Native for real: the story app (app/index.js) bundled by Metro 0.87.1 with @react-native/babel-preset
 * 0.88.1 (release, minified), resolving `game-campaign-sdk/react-native` from the built package, compiled by
 * `hermesc` and run on the Hermes VM of React Native 0.70 (hermes-engine-cli 0.12.0), with the real AsyncStorage
 * 2.x/3.x, NetInfo and react-native-get-random-values JavaScript over stand-in native modules (app/device.js).
 * The stories of a session's life also run on the older ends of the peer ranges, what Expo SDK 47 and 52 install
 * (AsyncStorage 1.17.3 with NetInfo 9.3.5, 1.23.1 with 11.4.1: `EXPO_APPS`), with the react-native-get-random-values
 * 1.x the guide gives React Native 0.70 to 0.80: 1.8.0 with SDK 47 (what `npx expo install` gives there), the newest
 * 1.x, 1.11.0 (what `npm install react-native-get-random-values@1` gives), with SDK 52's pair (React Native 0.76). The app is bundled twice: with package exports (Metro 0.82+, React Native 0.79+) and without (older Metro,
 * which finds the package's `react-native/package.json` sub-folder). Runs after the build (`npm test` builds
 * first). A VM that freezes is killed after a time limit and reported with the last step it reached.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { bundleStoryApp, compile, expectNoAnswer, HERMESC_TODAY, outcomeOf, runStory, type StoryNetInfo, type StoryRandom, type StoryStorage } from './hermes.js';

const ROOT = join(import.meta.dirname, '../../../..');
// A story compiles and runs the VM (two runs for a restart), each under its own 20 s limit: room for a loaded machine.
vi.setConfig({ testTimeout: 90_000 });
const MINUTES = 60;
const bundles: Record<'exports' | 'no-exports', string> = { exports: '', 'no-exports': '' };

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/react-native.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
  bundles.exports = await bundleStoryApp({ packageExports: true });
  bundles['no-exports'] = await bundleStoryApp({ packageExports: false });
}, 120_000);

/** The modules an app passes and the bundle its Metro makes. */
interface App {
  modules: string;
  storage: StoryStorage;
  netInfo: StoryNetInfo;
  random: StoryRandom;
  variant: keyof typeof bundles;
}
/**
 * What Expo SDK 47 and 52 install (peer-ranges.test.ts), the older ends of the peer ranges; their Metro (React
 * Native 0.70 and 0.76) has package exports off. On Hermes 0.12 both: SDK 52's own Hermes is newer. Both run a
 * react-native-get-random-values 1.x (React Native 0.70 to 0.80, the guide), which reads `NativeModules`.
 */
const EXPO_APPS: App[] = [
  { modules: 'AsyncStorage 1.17.3, NetInfo 9.3.5, get-random-values 1.8.0: Expo SDK 47', storage: 'v1.17', netInfo: 'v9', random: 'v1.8', variant: 'no-exports' },
  { modules: 'AsyncStorage 1.23.1, NetInfo 11.4.1 (Expo SDK 52), get-random-values 1.11.0', storage: 'v1.23', netInfo: 'v11', random: 'v1.11', variant: 'no-exports' },
];
/** Today's modules (AsyncStorage 3.1.1, NetInfo 12.0.1, react-native-get-random-values 2.0.0), then the Expo apps. */
const APPS: App[] = [{ modules: 'AsyncStorage 3.1.1, NetInfo 12.0.1, get-random-values 2.0.0', storage: 'v3', netInfo: 'v12', random: 'v2', variant: 'exports' }, ...EXPO_APPS];
/** `apps` as `it.each` rows `[name, app]` (a `%s` name is printed whole, an object's `$modules` cut at 40 characters). */
const named = (apps: App[]) => apps.map((app) => [app.modules, app] as const);
/** Runs `input` as `app` (its modules, its bundle). */
const storyOf = (app: App, input: Parameters<typeof runStory>[1]) => runStory(bundles[app.variant], { storage: app.storage, netInfo: app.netInfo, random: app.random, ...input }).then(outcomeOf);


describe('a Metro release bundle of a React Native app', () => {
  it("compiles with today's hermesc (hermes-compiler) as well as with the Hermes 0.12 VM's own", async () => {
    expect((await compile(HERMESC_TODAY, bundles.exports)).byteLength).toBeGreaterThan(bundles.exports.length / 4);
  });
});

describe('Metro without package exports (React Native 0.78 and older)', () => {
  it('resolves game-campaign-sdk/react-native through the react-native/package.json sub-folder, and cannot without it', async () => {
    await expect(bundleStoryApp({ packageExports: false, packageFiles: ['package.json', 'dist'] })).rejects.toThrow(/Unable to resolve module game-campaign-sdk\/react-native/);
    await expect(bundleStoryApp({ packageExports: false, packageFiles: ['package.json', 'dist', 'react-native'] })).resolves.toContain('PlaytimeTracker');
  }, 120_000);
});

describe.each(['exports', 'no-exports'] as const)('on Hermes 0.12, bundled with package %s', (variant) => {
  const story = (input: Parameters<typeof runStory>[1]) => runStory(bundles[variant], input).then(outcomeOf);

  it.each(['v3', 'v2'] as const)('start then stop: the relay gets the session once (AsyncStorage %s)', async (storage) => {
    expectDeliveredOnce(await story({ story: 'delivered-once', storage }));
  });
});

/** The delivered-once story's outcome: five minutes, stopped, delivered once, no error. */
function expectDeliveredOnce(run: ReturnType<typeof outcomeOf>) {
  expect(run.outcome.ends).toEqual([{ reason: 'stop', durationSeconds: 5 * MINUTES }]);
  expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 5 * MINUTES, campaignId: 'spring-event' })]);
  expect(run.answered).toEqual(['SUCCESS']);
  expect(run.outcome.errors).toEqual([]);
}

describe.each(named(EXPO_APPS))('on Hermes 0.12 with %s', (_name, app) => {
  it('start then stop: the relay gets the session once', async () => {
    expectDeliveredOnce(await storyOf(app, { story: 'delivered-once' }));
  });
});

describe('on Hermes 0.12 (AsyncStorage 3.1.1 and NetInfo 12.0.1 unless named)', () => {
  const story = (input: Parameters<typeof runStory>[1]) => runStory(bundles.exports, input).then(outcomeOf);

  it.each(named([...APPS, { ...APPS[0]!, modules: 'AsyncStorage 2.2.0, NetInfo 12.0.1, get-random-values 2.0.0', storage: 'v2' }]))('killed mid-session: the next start recovers the session from its last checkpoint and delivers it (%s)', async (_name, app) => {
    const killed = await storyOf(app, { story: 'killed' });
    expect(killed.delivered).toEqual([]);
    // seed: the next start of the app draws other random bytes (the device's generator is seeded per run).
    const restarted = await storyOf(app, { story: 'restarted', disk: killed.disk, delivered: killed.delivered, seed: 2 });
    expect(restarted.outcome.ends).toEqual([{ reason: 'recovered', durationSeconds: 2 * MINUTES }]);
    expect(restarted.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
    expect(restarted.answered).toEqual(['SUCCESS']);
  });

  it.each(named(APPS))("the next start's first listing of the keys refused (AsyncStorage busy at launch): the session queued and the one running at the kill are both delivered by that start (%s)", async (_name, app) => {
    const before = await storyOf(app, { story: 'queued-then-killed' });
    expect(before.delivered).toEqual([]);
    const after = await storyOf(app, { story: 'restarted', disk: before.disk, delivered: before.delivered, seed: 2, storageFaults: { keysFailures: 1 } });
    expect(after.outcome.errors).toEqual(['database is locked (code 5 SQLITE_BUSY)']);
    expect(after.outcome.ends).toEqual([{ reason: 'recovered', durationSeconds: 2 * MINUTES }]);
    expect(after.delivered.map((session) => session.durationSeconds).sort((a, b) => a - b)).toEqual([1 * MINUTES, 2 * MINUTES]);
    expect(after.answered).toEqual(['SUCCESS', 'SUCCESS']);
  });

  // 1.x writes where 2.x does (RNCAsyncStorage, what 3.x calls legacy): an update from Expo SDK 52's 1.23.1 moves alike.
  it.each(['v2', 'v1.23'] as const)('an app update from AsyncStorage %s to 3.x: the session queued and the one running before are delivered once by 3.x', async (from) => {
    const before = await story({ story: 'queued-then-killed', storage: from });
    expect(before.delivered).toEqual([]);
    const after = await story({ story: 'restarted', storage: 'v3', disk: before.disk, delivered: before.delivered, seed: 2 });
    expect(after.outcome.ends).toEqual([{ reason: 'recovered', durationSeconds: 2 * MINUTES }]);
    expect(after.delivered.map((session) => session.durationSeconds).sort((a, b) => a - b)).toEqual([1 * MINUTES, 2 * MINUTES]);
    expect(after.answered).toEqual(['SUCCESS', 'SUCCESS']);
    expect(after.disk).toEqual({ databases: { 'game-campaign': expect.any(Object) }, legacy: {} }); // nothing left in the app's legacy store
  });

  it.each(named(APPS))("a player who switched recording off: the next start's read of that choice failing once (AsyncStorage busy at launch) does not send the queue they kept (%s)", async (_name, app) => {
    const before = await storyOf(app, { story: 'opted-out-with-queue' });
    expect(before.delivered).toEqual([]);
    const key = Object.keys((before.disk as { databases: Record<string, Record<string, string>>; legacy: Record<string, string> }).databases['game-campaign'] ?? (before.disk as { legacy: object }).legacy).find((name) => name.endsWith(':opt-out'));
    expect(key).toBeDefined();
    // The first read of the choice is refused (SQLite's SQLITE_BUSY); every later call answers (the second read too).
    const after = await storyOf(app, { story: 'restarted', disk: before.disk, delivered: before.delivered, seed: 2, storageFaults: { getFailures: 1, getFailing: 'opt-out' } });
    expect(after.outcome.errors).toEqual([]);
    expect(after.delivered).toEqual([]);
    expect(after.answered).toEqual([]);
  });

  it.each(named(APPS))("AsyncStorage full (SQLite's 'database or disk is full'), offline at stop: the session is held in memory and delivered once when the network returns; the failure reported once (%s)", async (_name, app) => {
    const run = await storyOf(app, { story: 'disk-full' });
    expect(run.outcome.ends).toEqual([{ reason: 'stop', durationSeconds: 2 * MINUTES }]);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
    expect(run.answered).toEqual(['SUCCESS']);
    expect(run.outcome.errors).toEqual([expect.stringContaining('database or disk is full')]);
  });

  // Hermes 0.12's JSON.stringify writes a lone surrogate as it is (ES2019's well-formed JSON.stringify escapes it,
  // as today's Hermes, V8 and JavaScriptCore do), and native code gets it as U+FFFD (app/device.js nativeText):
  // the relay gets "Ada\ufffd". Open (docs/decisions.md "Lone surrogates on Hermes 0.12"): escaping each surrogate
  // in the React Native adapter's AsyncStorage values and fetch bodies fixes it for +61 B gzip on the Metro row.
  it.fails('metadata holding a lone surrogate (a nickname cut mid-emoji) reaches the relay as written, sent at once, from the offline queue, or recovered after a kill', async () => {
    const run = await story({ story: 'lone-surrogate' });
    expect(run.outcome.errors).toEqual([]);
    expect(run.delivered.map((session) => session.metadata)).toEqual(['{"nickname":"Ada\\ud83d","pair":"\\ud83d\\ude00"}', '{"nickname":"\\ude00Bo"}']);
    const killed = await story({ story: 'killed', startOptions: { metadata: { nickname: 'Ada\ud83d' } } });
    const restarted = await story({ story: 'restarted', disk: killed.disk, delivered: killed.delivered, seed: 2 });
    expect(restarted.delivered.map((session) => session.metadata)).toEqual(['{"nickname":"Ada\\ud83d"}']);
  });

  it('the relay records the session and its answer never arrives (a fetch that never settles, no signal.reason): flush() still ends, and the session counts once (later sends answered SKIPPED)', async () => {
    const run = await story({ story: 'answer-never-arrives' });
    expect(run.outcome.flushDone).toBe(true);
    expect(run.outcome.flushed).toBe(1);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
    expect(run.answered[0]).toBe('SUCCESS');
    expect(new Set(run.answered.slice(1))).toEqual(new Set(['SKIPPED']));
  });

  it('dispose() while a flush hangs: it finishes and leaves no timer, AppState or NetInfo listener; the next start delivers the session once', async () => {
    const run = await story({ story: 'dispose-during-flush' });
    expect(run.outcome).toMatchObject({ errors: [], timers: 0, appState: 0, netInfo: 0 });
    expect(run.delivered).toEqual([]);
    const next = await story({ story: 'restarted', disk: run.disk, delivered: run.delivered, seed: 2 });
    expect(next.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
    expect(next.answered).toEqual(['SUCCESS']);
  });

  // React Native 0.70's AbortController (abort-controller 3) has no `signal.reason`: the error is the SDK's own.
  it("no answer at all on React Native 0.70's AbortController (no signal.reason): a read fails with TimeoutError saying how long it waited, and the tracker reports the relay unreachable with that cause", async () => {
    expectNoAnswer(await story({ story: 'no-answer' }), 1);
  });

  it.each(named([...APPS, { ...APPS[0]!, modules: 'AsyncStorage 2.2.0, NetInfo 12.0.1, get-random-values 2.0.0', storage: 'v2' }]))("AsyncStorage that never answers (its native module never calls back): each call given up after 10 s and reported, stop(), flush() and dispose() finish, and the session held in memory is delivered once (%s)", async (_name, app) => {
    const run = await storyOf(app, { story: 'storage-never-answers' });
    expect(run.outcome.finished).toEqual(['stop', 'flush', 'dispose']);
    expect(run.outcome.ends).toEqual([{ reason: 'stop', durationSeconds: 2 * MINUTES }]);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
    expect(run.answered).toEqual(['SUCCESS']);
    expect(run.outcome.errors).toEqual([expect.stringMatching(/^AsyncStorage\.\w+ did not answer within 10 s$/)]);
  });

  /** A story of hours in the background, back offline: the first session ended at the time-out, the second at stop (`seconds`), nothing sent offline, both delivered once online. */
  function expectBackOnline(run: Awaited<ReturnType<typeof outcomeOf>>, seconds: number) {
    expect(run.outcome.ends).toEqual([
      { reason: 'background-timeout', durationSeconds: 1 * MINUTES },
      { reason: 'stop', durationSeconds: seconds },
    ]);
    expect(run.outcome.offline).toEqual({ requests: 0, delivered: 0 });
    expect(run.delivered.map((session) => session.durationSeconds)).toEqual([1 * MINUTES, seconds]);
    expect(run.answered).toEqual(['SUCCESS', 'SUCCESS']);
    expect(run.outcome.errors).toEqual([]);
  }

  // Part of a phone's night: iOS suspends the app in the background (no timer fires) and Android's performance.now()
  // stops while the phone sleeps, so only the wall clock sees the hours.
  it.each(named(APPS))('hours in the background, suspended, and back with no network (NetInfo offline): the hours are not counted, nothing is sent offline, and both sessions are delivered once when the network returns (%s)', async (_name, app) => {
    const run = await storyOf(app, { story: 'hours-in-background-then-offline' });
    expectBackOnline(run, 1 * MINUTES);
  });

  it('the same, NetInfo reporting the lost network 5 s after the return (the state the app was suspended with until then): nothing sent, nothing reported, both sessions delivered once when the network returns', async () => {
    const run = await story({ story: 'hours-in-background-then-offline', netInfoLate: true });
    expectBackOnline(run, 1 * MINUTES + 5);
  });

  it('2 hours in the background with its timers running (Android, the phone awake), offline from the first minute there and still at the return: the session ended at the time-out, nothing sent offline, both sessions delivered once when the network returns', async () => {
    const run = await story({ story: 'hours-in-background-then-offline', awake: true });
    expectBackOnline(run, 1 * MINUTES);
  });

  it("iOS's AppState (inactive before background, each event twice): the background is not counted, a long one ends the session there and play resumes as a new session", async () => {
    const run = await story({ story: 'ios-app-state' });
    // 1 min + 5 s inactive (counted: docs/decisions.md "React Native lifecycle") + 1 min; the 10 minutes away end it.
    expect(run.outcome.ends).toEqual([
      { reason: 'background-timeout', durationSeconds: 2 * MINUTES + 5 },
      { reason: 'stop', durationSeconds: 1 * MINUTES },
    ]);
    expect(run.delivered.map((session) => session.durationSeconds)).toEqual([2 * MINUTES + 5, 1 * MINUTES]);
    expect(run.outcome.errors).toEqual([]);
  });

  // The first row as the sample's effect is; the second with a session started in the effect (the guide's lines) and the
  // previous run's sessions on the disk (one queued offline, one running at a kill), which the second SDK recovers once
  // the first is disposed.
  it.each([
    [false, false],
    [true, true],
  ])("React 19 StrictMode's double mount (the effect creating the SDK runs, its clean-up disposes without awaiting, it runs again; a session started in the effect: %s, a previous run's sessions on the disk: %s): each session delivered once, no warning, nothing left of the first SDK", async (startInEffect, previousRun) => {
    const before = previousRun ? await story({ story: 'queued-then-killed' }) : undefined;
    const raw = await runStory(bundles.exports, { story: 'strict-mode', startInEffect, disk: before?.disk, delivered: before?.delivered, seed: 2 });
    const run = outcomeOf(raw);
    // The first SDK is disposed before the second is made: no "not disposed" warning (nor anything else) in the console.
    expect(raw.console).toEqual([]);
    // The first SDK's session (started in its effect) ends at its dispose, under 1 s: dropped as too short, and said so.
    expect(run.outcome.first).toEqual({ ends: startInEffect ? [{ reason: 'dispose', durationSeconds: 0 }] : [], errors: [] });
    expect(run.outcome.dropped).toEqual(startInEffect ? ['too-short'] : []);
    expect(run.outcome.starts).toHaveLength(startInEffect ? 2 : 1);
    const level = { reason: 'stop', durationSeconds: 2 * MINUTES };
    expect(run.outcome.ends).toEqual(previousRun ? [{ reason: 'recovered', durationSeconds: 2 * MINUTES }, level] : [level]);
    expect(run.outcome.errors).toEqual([]);
    // Each delivered once (none sent twice: no SKIPPED).
    expect(run.delivered.map((session) => session.durationSeconds)).toEqual(previousRun ? [1 * MINUTES, 2 * MINUTES, 2 * MINUTES] : [2 * MINUTES]);
    expect(run.delivered.at(-1)!.sessionId).toBe(run.outcome.starts.at(-1));
    expect(run.answered).toEqual(run.delivered.map(() => 'SUCCESS'));
    // Only the second SDK listens: the first one's AppState and NetInfo subscriptions are gone.
    expect(run.outcome.left).toEqual({ appState: 1, netInfo: 1 });
    // The app killed there, the next start finds nothing of either SDK to recover or send again.
    const restarted = await story({ story: 'restarted', disk: run.disk, delivered: run.delivered, seed: 3 });
    expect(restarted.outcome.ends).toEqual([]);
    expect(restarted.delivered).toHaveLength(run.delivered.length);
    expect(restarted.answered).toEqual([]);
  });

  it.each([
    [30_000, [{ reason: 'stop', durationSeconds: 3 * MINUTES + 10 }]],
    [5 * 60_000, [{ reason: 'background-timeout', durationSeconds: 2 * MINUTES + 10 }, { reason: 'stop', durationSeconds: 1 * MINUTES }]],
  ] as const)("iOS's control centre mid-session (inactive, then active), then %i ms in the background and back: only the background is left out, in one session or, past the time-out, two", async (backgroundMs, ends) => {
    const run = await story({ story: 'control-centre-then-background', backgroundMs });
    // The 10 s under the control centre count (docs/decisions.md "React Native lifecycle": `inactive` ignored).
    expect(run.outcome.ends).toEqual(ends);
    expect(run.delivered.map((session) => session.durationSeconds)).toEqual(ends.map((end) => end.durationSeconds));
    expect(run.answered).toEqual(ends.map(() => 'SUCCESS'));
    expect(run.outcome.errors).toEqual([]);
  });

  it.each(named(APPS))('killed mid-session, then restarted offline: nothing is sent offline; when the network returns the recovered session is delivered once (%s)', async (_name, app) => {
    const killed = await storyOf(app, { story: 'killed' });
    expect(killed.delivered).toEqual([]);
    const restarted = await storyOf(app, { story: 'restarted-offline', disk: killed.disk, delivered: killed.delivered, seed: 2 });
    expect(restarted.outcome.offline).toEqual({ ends: [{ reason: 'recovered', durationSeconds: 2 * MINUTES }], delivered: 0 });
    // Sent as NetInfo reports the network back (not at a later interval flush), and only once.
    expect(restarted.outcome.deliveredAtReturn).toBe(1);
    expect(restarted.outcome.ends).toEqual([{ reason: 'recovered', durationSeconds: 2 * MINUTES }]);
    expect(restarted.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
    expect(restarted.answered).toEqual(['SUCCESS']);
    expect(restarted.outcome.errors).toEqual([]);
  });

  it.each(named(APPS))("the first session's id, started in createGameCampaign's tick, comes from the secure source (react-native-get-random-values), not Math.random (%s)", async (_name, app) => {
    const ids = await Promise.all([1, 1, 2].map(async (seed) => (await storyOf(app, { story: 'first-id', seed })).outcome.id as string));
    expect(ids[0]).not.toBe('80808080-8080-4080-8080-808080808080'); // what Math.random() = 0.5 would give
    expect(ids[0]).toBe(ids[1]); // the device's generator, seeded alike
    expect(ids[2]).not.toBe(ids[0]);
  });

  it.each(named(APPS))('offline at stop: nothing is sent; when NetInfo reports the network back, the session is delivered without a call from the game (%s)', async (_name, app) => {
    const run = await storyOf(app, { story: 'offline-then-online' });
    expect(run.outcome.deliveredOffline).toBe(0);
    expect(run.outcome.deliveredOnline).toBe(1);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 1 * MINUTES })]);
  });

  it.each(named(APPS))('a connection that flaps (connected 1 s in 3, the relay unreachable): the returns wait out the backoff but the first (6 requests in a minute, was 21); a later return delivers at once (%s)', async (_name, app) => {
    const run = await storyOf(app, { story: 'flapping' });
    expect(run.outcome.flappingRequests).toBe(6);
    expect(run.outcome.deliveredOnline).toBe(1);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 1 * MINUTES })]);
  });

  it.each(named(APPS))("NetInfo's reachability check blocked (isConnected true, isInternetReachable false, as iOS reports where Google is unreachable): the relay still gets the session (%s)", async (_name, app) => {
    const run = await storyOf(app, { story: 'reachability-check-blocked' });
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 5 * MINUTES })]);
    expect(run.outcome.errors).toEqual([]);
  });

  // 2.0.0 looks its module up in TurboModuleRegistry (getEnforcing throws), 1.x in NativeModules (index.js throws).
  it.each([
    ['2.0.0', 'v2', /^CryptoUnavailableError: crypto.getRandomValues failed \(.*'RNGetRandomValues' could not be found\)/],
    ['1.11.0', 'v1.11', /^CryptoUnavailableError: crypto.getRandomValues failed \(.*Native module not found\)/],
    ['1.8.0', 'v1.8', /^CryptoUnavailableError: crypto.getRandomValues failed \(.*Native module not found\)/],
  ] as const)("react-native-get-random-values %s installed without its native module: createGameCampaign throws CryptoUnavailableError naming the cause (no id from Math.random)", async (_version, random, message) => {
    const run = await story({ story: 'random-module-missing', random, withoutRandomModule: true });
    expect(run.outcome).toEqual({ error: expect.stringMatching(message), code: 'CRYPTO_UNAVAILABLE' });
  });

  it.each(named(APPS))('time in the background (AppState) is not counted (%s)', async (_name, app) => {
    const run = await storyOf(app, { story: 'background' });
    expect(run.outcome.ends).toEqual([{ reason: 'stop', durationSeconds: 2 * MINUTES }]);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
  });

  // The OS kills a backgrounded app it needs the memory of: iOS at once (its timers stopped as it was suspended, 0 s),
  // Android after a while in the background (30 s, its timers still running), or past the background time-out (10 min,
  // the session ended there by the tracker's timer). The stay is never counted, and the session is delivered once.
  it.each([
    [0, 'recovered'],
    [30_000, 'recovered'],
    [10 * 60_000, 'background-timeout'],
  ] as const)('killed in the background after %i ms there: the two minutes played are delivered once, the background not counted (%s)', async (backgroundMs, reason) => {
    const killed = await story({ story: 'killed-in-background', backgroundMs });
    const restarted = await story({ story: 'restarted', disk: killed.disk, delivered: killed.delivered, seed: 2 });
    expect([...killed.outcome.ends, ...restarted.outcome.ends]).toEqual([{ reason, durationSeconds: 2 * MINUTES }]);
    expect(restarted.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
    expect(restarted.outcome.errors).toEqual([]);
  });

  it.each([
    [true, ['SKIPPED']],
    [false, ['SUCCESS']],
  ] as const)('killed while the delivery request is in flight (the relay recorded it: %s): the next start delivers the session once', async (relayRecords, answered) => {
    const killed = await story({ story: 'killed-while-sending', relayRecords });
    expect(killed.outcome.ends).toEqual([{ reason: 'stop', durationSeconds: 2 * MINUTES }]);
    expect(killed.delivered).toEqual(relayRecords ? [expect.objectContaining({ durationSeconds: 2 * MINUTES })] : []);
    const restarted = await story({ story: 'restarted', disk: killed.disk, delivered: killed.delivered, seed: 2 });
    expect(restarted.delivered).toEqual([expect.objectContaining({ durationSeconds: 2 * MINUTES })]);
    expect(restarted.answered).toEqual(answered);
    expect(restarted.outcome.errors).toEqual([]);
    // Nothing left to send: no queued or running record on the device.
    expect(Object.keys((restarted.disk as { databases: Record<string, object> }).databases['game-campaign']!).filter((key) => /:(queue|running):/.test(key))).toEqual([]);
  });

  it.each(named(APPS))("AsyncStorage full (SQLite's 'database or disk is full') after a session was queued: the queued one and the one held in memory are both delivered once; the failure reported once (%s)", async (_name, app) => {
    const run = await storyOf(app, { story: 'full-after-queued' });
    expect(run.outcome.ends).toEqual([
      { reason: 'stop', durationSeconds: 1 * MINUTES },
      { reason: 'stop', durationSeconds: 2 * MINUTES },
    ]);
    expect(run.delivered.map((session) => session.durationSeconds).sort((a, b) => a - b)).toEqual([1 * MINUTES, 2 * MINUTES]);
    expect(run.answered).toEqual(['SUCCESS', 'SUCCESS']);
    expect(run.outcome.errors).toEqual([expect.stringContaining('database or disk is full')]);
  });

  it.each(named(APPS))("AsyncStorage full after a session was queued, then the app killed offline: the next start (its disk still full) delivers the stored one once (%s)", async (_name, app) => {
    const killed = await storyOf(app, { story: 'full-after-queued', killed: true });
    expect(killed.delivered).toEqual([]);
    expect(killed.outcome.errors).toEqual([expect.stringContaining('database or disk is full')]);
    const restarted = await storyOf(app, { story: 'restarted', disk: killed.disk, delivered: killed.delivered, seed: 2, storageFaults: { full: true } });
    expect(restarted.delivered).toEqual([expect.objectContaining({ durationSeconds: 1 * MINUTES })]);
    expect(restarted.answered).toEqual(['SUCCESS']);
  });

  it.each(named(APPS))("NetInfo's first state unknown (isConnected null, before the OS's first reading): flush() delivers the session, nothing reported (%s)", async (_name, app) => {
    const run = await storyOf(app, { story: 'network-unknown-at-start', netInfoAtStart: 'unknown' });
    expect(run.outcome.deliveredByFlush).toBe(1);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 5 * MINUTES })]);
    expect(run.outcome.errors).toEqual([]);
  });

  it("a stay in the background past the time-out ends the session there; the guide's lines start the next one on return", async () => {
    const run = await story({ story: 'long-background' });
    expect(run.outcome.ends).toEqual([
      { reason: 'background-timeout', durationSeconds: 1 * MINUTES },
      { reason: 'stop', durationSeconds: 1 * MINUTES },
    ]);
    expect(run.delivered.map((session) => session.durationSeconds)).toEqual([1 * MINUTES, 1 * MINUTES]);
    expect(run.outcome.errors).toEqual([]);
  });

  it.each(named(APPS))('dispose() leaves no AppState or NetInfo subscription and no timer; later OS events send nothing (%s)', async (_name, app) => {
    const run = await storyOf(app, { story: 'dispose' });
    expect(run.outcome.live).toEqual({ appState: 1, netInfo: 1, timers: expect.any(Number) });
    expect(run.outcome.live.timers).toBeGreaterThan(0);
    expect(run.outcome.left).toEqual({ appState: 0, netInfo: 0, timers: 0 });
    expect(run.outcome.requestsAfter).toBe(0);
  });
});

describe('the creator picker on Hermes 0.12, from its own entry', () => {
  it.each(['exports', 'no-exports'] as const)(
    'loads the campaign, creators and boost, and shows the cooldown the service states when it refuses a change (package %s)',
    async (variant) => {
      const played = await runStory(bundles[variant], { story: 'picker' });
      const run = outcomeOf(played);
      // The story keeps the SDK it made without the picker: the second one for player-1 warns (React Native's console).
      expect(played.console).toEqual([expect.stringMatching(/^warn createGameCampaign: .*player player-1 is not disposed/)]);
      expect(run.outcome.withoutPicker).toBe("TypeError: gc.picker: pass createGameCampaign the creatorPicker of 'game-campaign-sdk/react-native/picker'");
      expect(run.outcome.loaded).toEqual({ creators: ['ABCDE', 'FGHIJ'], boosted: 'ABCDE' });
      expect(run.outcome.boostChanges).toEqual([expect.objectContaining({ newCreatorKey: 'FGHIJ', campaignId: 'spring-event' })]);
      expect(run.outcome.refused).toEqual({ confirmed: null, error: 'BoostCooldownError', cooldownDays: 27, canConfirm: false });
    },
  );
});

describe('the web view on Hermes 0.12 (Linking)', () => {
  it("opens the relay's page with a PKCE pair whose challenge is the SHA-256 of its verifier, hashed on the VM", async () => {
    const run = outcomeOf(await runStory(bundles.exports, { story: 'webview' }));
    const [opened] = run.outcome.openedUrls as string[];
    const verifier = new URL(opened!).hash.replace('#code_verifier=', '');
    expect(opened).toBe(`https://campaign.example/page?ott=ott-1#code_verifier=${verifier}`);
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(run.outcome.webviewRequests).toEqual([{ campaignId: 'spring-event', codeChallenge: createHash('sha256').update(verifier).digest('base64url') }]);
  });
});

describe('the web view host on Hermes 0.12 (createWebViewHost)', () => {
  it('passed but its Host not rendered: gc.webview.open rejects with WebViewUnavailableError before any request, online and offline (no token spent, no ConnectionError)', async () => {
    const run = outcomeOf(await runStory(bundles.exports, { story: 'webview-host-not-rendered' }));
    const refused = 'WebViewUnavailableError WEBVIEW_UNAVAILABLE createWebViewHost: <webView.Host /> is not rendered';
    expect(run.outcome).toEqual({ online: refused, offline: refused, requests: 0, webviewRequests: [], openedUrls: [] });
  });
});

describe('launched by the OS in the background on Hermes 0.12', () => {
  it.each(named(APPS))('the session the app starts there counts nothing until the player opens the app hours later; the minute played then is delivered once (%s)', async (_name, app) => {
    const run = await storyOf(app, { story: 'launched-in-background' });
    // The session started in the background ends there, empty (0 s: not sent); the tracker continues it on the opening.
    expect(run.outcome.ends).toEqual([
      { reason: 'background-timeout', durationSeconds: 0 },
      { reason: 'stop', durationSeconds: 1 * MINUTES },
    ]);
    expect(run.outcome.starts).toEqual(['new', 'continues']);
    expect(run.delivered).toEqual([expect.objectContaining({ durationSeconds: 1 * MINUTES, campaignId: 'spring-event' })]);
    expect(run.answered).toEqual(['SUCCESS']);
    expect(run.outcome.errors).toEqual([]);
  });
});

describe('a session over 2 MB on Hermes 0.12 (AsyncStorage on Android cannot read such an entry back)', () => {
  it.each(named(APPS))("is not written but held in memory and sent, the relay's 413 drops it once as too large, the failure to store it reported; the next session is delivered (%s)", async (_name, app) => {
    const run = await storyOf(app, { story: 'over-2mb' });
    expect(run.outcome.dropped).toEqual([`${run.outcome.big} too-large`]);
    expect(run.delivered).toEqual([expect.objectContaining({ sessionId: run.outcome.small, durationSeconds: 5 })]);
    expect(run.outcome.errors).toEqual([expect.stringMatching(/over 2 MB/)]);
    expect(run.outcome.largestStored).toBeLessThan(1_000_000);
  });
});

describe("an Expo app's expo-crypto on Hermes 0.12 (its real JavaScript over a stand-in of its native module: app/expo.js)", () => {
  // 12.2.1 is Expo SDK 48's (React Native 0.71: Metro 0.73, no package exports), the first with getRandomValues; its
  // native module digests synchronously (`digest`), 57.0.3's asynchronously (`digestAsync`).
  it.each([
    ['57.0.3', 'exports', undefined, 'digestAsync'],
    ['57.0.3', 'no-exports', undefined, 'digestAsync'],
    ['12.2.1', 'no-exports', 'v12.2', 'digest'],
  ] as const)("%s passed as modules.expoCrypto with no react-native-get-random-values: the session's id comes from it, the session is delivered once, and the web view's PKCE challenge is its SHA-256 digest (package %s)", async (_version, variant, expoCrypto, digestCall) => {
    const run = outcomeOf(await runStory(bundles[variant], { story: 'expo-crypto', random: 'none', expoCrypto }));
    expect(run.outcome.polyfilled).toBe(false);
    expect(run.outcome.ids).toEqual([expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)]);
    expect(run.outcome.expoCalls.getRandomValues).toBeGreaterThan(0);
    expect(run.delivered).toEqual([expect.objectContaining({ sessionId: run.outcome.ids[0], durationSeconds: 1 * MINUTES })]);
    expect(run.outcome.errors).toEqual([]);
    expect(run.outcome.expoCalls).toMatchObject({ digestAsync: [], digest: [], [digestCall]: ['SHA-256'] });
    const verifier = new URL((run.outcome.openedUrls as string[])[0]!).hash.replace('#code_verifier=', '');
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(run.outcome.webviewRequests).toEqual([{ campaignId: 'spring-event', codeChallenge: createHash('sha256').update(verifier).digest('base64url') }]);
  });
});

describe('paths no other story runs, on Hermes 0.12 (the built-ins they reach: hermes-built-ins.test.ts)', () => {
  it("the picker's creators search on React Native 0.70's AbortController: a search replaced in flight is aborted and ignored, the second one's results show", async () => {
    const run = outcomeOf(await runStory(bundles.exports, { story: 'search' }));
    expect(run.outcome).toEqual({ shown: { query: 'Gra', results: ['FGHIJ'], searching: false, error: null }, searches: ['slow', 'gra'] });
  });

  it.each(named(APPS))('deleteStoredData with a session queued offline: nothing is sent once online and nothing of it stays stored (%s)', async (_name, app) => {
    const run = await storyOf(app, { story: 'delete-stored-data' });
    expect(run.outcome.errors).toEqual([]);
    expect(run.delivered).toEqual([]);
    expect(run.answered).toEqual([]);
    const databases = (run.disk as { databases: Record<string, Record<string, string>> }).databases;
    const stored = Object.values(databases).flatMap((database) => Object.keys(database)).filter((key) => /:(queue|running):/.test(key));
    expect(stored).toEqual([]);
  });
});
