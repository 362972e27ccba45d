/**
 * The story app: a React Native game's use of `game-campaign-sdk/react-native`, set up as the guide says
 * (docs/guides/react-native.md), bundled by Metro and run on the Hermes VM. The test prepends
 * `var __STORY__ = { story, storage, netInfo, random, disk, delivered }` and reads the one `RESULT {json}` line this prints;
 * `STEP name` lines say how far it got (a VM that hangs is killed by the test, which reports the last step).
 * No numeric separators (`60_000`) in the app's files: React Native 0.70's release build minifies with uglify-es
 * (Metro 0.72's `metro-minify-uglify`), which refuses them (react-native-0.70.test.ts bundles these files too).
 */
import './device.js'; // first: the device's globals (timers, fetch, AbortController) before any package loads
import { advance, appState, disk, openedUrls, pendingTimers, relay, RELAY_URL, setAppState, setOnline, setProbeBlocked, settle, sleep, storageFaults } from './device.js';
import './random.js'; // react-native-get-random-values, the version of this run: crypto.getRandomValues before the SDK
import * as AsyncStorageV3 from '@react-native-async-storage/async-storage';
import AsyncStorageV2 from 'async-storage-v2';
import AsyncStorageV1_23 from 'async-storage-v1-23';
import AsyncStorageV1_17 from 'async-storage-v1-17';
import NetInfoV12 from '@react-native-community/netinfo';
import NetInfoV11 from 'netinfo-v11';
import NetInfoV9 from 'netinfo-v9';
import { AppState, Linking } from 'react-native';
import { createGameCampaign, createWebViewHost } from 'game-campaign-sdk/react-native';
import { creatorPicker } from 'game-campaign-sdk/react-native/picker';

const { story, storage = 'v3', netInfo = 'v12', random = 'v2' } = globalThis.__STORY__;
// Every version's module loads at start (each looks up its native module then: app/react-native.js has them all).
/** AsyncStorage as the guide passes it: 3.x's module (`import * as`), 1.x's and 2.x's default export. */
const AsyncStorage = storage === 'v1.17' ? AsyncStorageV1_17 : storage === 'v1.23' ? AsyncStorageV1_23 : storage === 'v2' ? AsyncStorageV2 : AsyncStorageV3;
const NetInfo = netInfo === 'v9' ? NetInfoV9 : netInfo === 'v11' ? NetInfoV11 : NetInfoV12;
const step = (name) => print(`STEP ${name}`);
const MINUTE = 60000;

/** NetInfo as the game passes it, counting the SDK's live listeners (for "dispose leaves no subscription"). */
let netInfoListeners = 0;
const countedNetInfo = {
  addEventListener(listener) {
    netInfoListeners++;
    const unsubscribe = NetInfo.addEventListener(listener);
    return () => {
      netInfoListeners--;
      unsubscribe();
    };
  },
};

function start(more = {}, moreModules = {}) {
  const gc = createGameCampaign({
    ...more,
    clientKey: 'ck_test_key:secret',
    relay: { url: RELAY_URL },
    userId: 'player-1',
    tracker: { campaignId: 'spring-event' },
    modules: { AsyncStorage, AppState, NetInfo: countedNetInfo, Linking, ...moreModules },
  });
  const ends = [];
  const errors = [];
  gc.tracker.on('session:end', (event) => ends.push({ reason: event.reason, durationSeconds: event.session.durationSeconds }));
  gc.tracker.on('error', (event) => errors.push(String(event.error && event.error.message)));
  return { gc, ends, errors };
}

/** The device goes offline; a session is started, played a minute and stopped (queued: nothing can be sent). */
async function playAMinuteOffline(gc) {
  setOnline(false);
  await settle();
  gc.tracker.start();
  await advance(MINUTE);
  step('stop');
  await gc.tracker.stop();
}

/** Starts a session, plays a minute, stays `backgroundMs` in the background, plays a minute, stops, flushes, disposes. */
async function playAroundBackground(gc, backgroundMs) {
  gc.tracker.start();
  await advance(MINUTE);
  setAppState('background');
  await advance(backgroundMs);
  await backAndStop(gc);
}

/** Back in the foreground: plays a minute, stops, flushes, disposes. */
async function backAndStop(gc) {
  setAppState('active');
  await advance(MINUTE);
  step('stop');
  await gc.tracker.stop();
  await gc.tracker.flush();
  await gc.dispose();
}

const stories = {
  /** A minute played and stopped offline (queued); the player switches recording off; the process ends (online, nothing sent). */
  async 'opted-out-with-queue'() {
    const { gc } = start();
    await playAMinuteOffline(gc);
    await gc.tracker.setOptOut(true);
    setOnline(true);
    await settle();
    await advance(5 * MINUTE);
    return { requests: relay.requests };
  },
  /**
   * Android's AsyncStorage full (its 6 MB default, or the disk): every write refused with SQLite's error; offline at
   * stop, then online. The session is held in memory and delivered once; the failure reported once.
   */
  async 'disk-full'() {
    storageFaults.full = true;
    const { gc, ends, errors } = start();
    await settle();
    setOnline(false);
    await settle();
    gc.tracker.start();
    await advance(2 * MINUTE);
    step('stop');
    await gc.tracker.stop();
    await advance(MINUTE);
    setOnline(true);
    await settle();
    await advance(MINUTE);
    step('dispose');
    await gc.dispose();
    return { ends, errors };
  },
  /**
   * The relay records the session and its answer never arrives (a fetch that never settles, its abort unheard): the
   * flush gives up at its time-out, the next ones are answered SKIPPED, and the session is delivered once.
   */
  async 'answer-never-arrives'() {
    const { gc, ends, errors } = start();
    const flushed = [];
    gc.tracker.on('flushed', (e) => flushed.push(e));
    relay.hangAfterRecord = true;
    gc.tracker.start();
    await advance(2 * MINUTE);
    step('stop');
    await gc.tracker.stop();
    step('flush');
    let flushDone = false;
    gc.tracker.flush().then(() => (flushDone = true));
    await advance(2 * MINUTE);
    relay.hangAfterRecord = false;
    await advance(5 * MINUTE);
    step('dispose');
    await gc.dispose();
    return { ends, errors, flushDone, flushed: flushed.length, requests: relay.requests };
  },
  /** dispose() while a flush's request hangs: it finishes, leaving no timer or listener; the session stays on disk. */
  async 'dispose-during-flush'() {
    const { gc, ends, errors } = start();
    relay.hang = true;
    gc.tracker.start();
    await advance(2 * MINUTE);
    step('stop');
    await gc.tracker.stop();
    gc.tracker.flush();
    await advance(1000);
    step('dispose');
    await gc.dispose();
    return { ends, errors, timers: pendingTimers(), appState: appState.listeners.size, netInfo: netInfoListeners };
  },
  /**
   * No answer ever comes (React Native 0.70's fetch: no answer, no error, its abort unheard) on that version's
   * `AbortController`, whose signal has no `reason`: a read with a 5 s time-out, then a session's flushes.
   */
  async 'no-answer'() {
    const { gc, ends } = start();
    const reported = [];
    gc.tracker.on('error', (event) => reported.push({ kind: event.kind, message: event.error.message, cause: event.error.cause && `${event.error.cause.name} ${event.error.cause.code} ${event.error.cause.message}` }));
    relay.hang = true;
    let read = 'pending';
    gc.campaigns.get('spring-event', { timeout: 5000, maxRetries: 0 }).then(
      () => (read = 'answered'),
      (error) => (read = `${error.name} ${error.code} ${error.message}`),
    );
    await advance(5000);
    gc.tracker.start();
    await advance(MINUTE);
    step('stop');
    await gc.tracker.stop();
    await advance(5 * MINUTE);
    step('dispose');
    await gc.dispose();
    return { ends, read, reported };
  },
  /**
   * AsyncStorage's native module never calls back (no answer, no error) from the app's start: two minutes played,
   * stopped, flushed and disposed, each call given up after 10 s.
   */
  async 'storage-never-answers'() {
    storageFaults.hang = true;
    const { gc, ends, errors } = start();
    gc.tracker.start();
    await advance(2 * MINUTE);
    step('stop');
    const finished = [];
    gc.tracker.stop().then(() => finished.push('stop'));
    await advance(MINUTE);
    step('flush');
    gc.tracker.flush().then(() => finished.push('flush'));
    await advance(MINUTE);
    step('dispose');
    gc.dispose().then(() => finished.push('dispose'));
    await advance(MINUTE);
    return { ends, errors, finished };
  },
  /**
   * Hours in the background, the app suspended all along (no timer runs, the monotonic clock stands still), and back
   * with no network (NetInfo offline; with input `netInfoLate`, NetInfo says so only after the return; with `awake`,
   * 2 hours with the app's timers running, offline from the first minute): a minute played and stopped offline, then
   * the network returns.
   */
  async 'hours-in-background-then-offline'() {
    const { gc, ends, errors } = start();
    gc.tracker.start();
    await advance(MINUTE);
    setAppState('background');
    await settle();
    let requestsAtReturn = relay.requests;
    if (globalThis.__STORY__.awake) {
      // Android keeps a backgrounded app's timers running while the phone is awake: the network goes after a minute
      // there, and the app stays in the background for 2 hours (its timers firing, the session ended at the time-out).
      await advance(MINUTE);
      setOnline(false);
      requestsAtReturn = relay.requests;
      await advance(2 * 60 * MINUTE);
    } else sleep(6 * 60 * MINUTE);
    step('return offline');
    if (globalThis.__STORY__.awake) setAppState('active');
    else if (globalThis.__STORY__.netInfoLate) {
      // NetInfo still reports the network the app was suspended with for 5 s, then catches up.
      relay.online = false;
      setAppState('active');
      await advance(5000);
      setOnline(false);
    } else {
      requestsAtReturn = relay.requests;
      setOnline(false);
      setAppState('active');
    }
    await settle();
    await advance(MINUTE);
    step('stop');
    await gc.tracker.stop();
    await advance(5 * MINUTE);
    const offline = { requests: relay.requests - requestsAtReturn, delivered: relay.delivered.length };
    step('online');
    setOnline(true);
    await settle();
    await advance(MINUTE);
    step('dispose');
    await gc.dispose();
    return { ends, errors, offline };
  },
  /**
   * iOS's AppState: `inactive` before `background` (the app switcher, a call), each background event delivered twice;
   * 30 s in the background, then 10 minutes (past the time-out). `inactive` alone counts (docs/decisions.md).
   */
  async 'ios-app-state'() {
    const { gc, ends, errors } = start();
    gc.tracker.start();
    await advance(MINUTE);
    setAppState('inactive');
    await advance(5000);
    setAppState('background');
    setAppState('background');
    await advance(30000);
    setAppState('active');
    setAppState('active');
    await advance(MINUTE);
    setAppState('inactive');
    setAppState('background');
    await advance(10 * MINUTE);
    await backAndStop(gc);
    return { ends, errors };
  },
  /** Start, play five minutes, stop: the relay gets the session once. */
  async 'delivered-once'() {
    const { gc, ends, errors } = start();
    step('start');
    gc.tracker.start();
    await advance(5 * MINUTE);
    step('stop');
    await gc.tracker.stop();
    step('flush');
    await gc.tracker.flush();
    await advance(2 * MINUTE); // interval flushes: nothing is sent again
    await gc.dispose();
    return { ends, errors };
  },

  /**
   * A session whose metadata holds a lone surrogate (a nickname cut mid-emoji), delivered at stop; a second one
   * queued offline (through AsyncStorage) and delivered when the network returns.
   */
  async 'lone-surrogate'() {
    const { gc, ends, errors } = start();
    gc.tracker.start({ metadata: { nickname: 'Ada\ud83d', pair: '\ud83d\ude00' } });
    await advance(MINUTE);
    step('stop');
    await gc.tracker.stop();
    await gc.tracker.flush();
    setOnline(false);
    await settle();
    gc.tracker.start({ metadata: { nickname: '\ude00Bo' } });
    await advance(MINUTE);
    await gc.tracker.stop();
    setOnline(true);
    await advance(MINUTE);
    await gc.dispose();
    return { ends, errors };
  },

  /**
   * Two minutes played and stopped, and the app killed while the delivery request is in flight: the relay has recorded
   * the session (input `relayRecords`) or not yet, and no answer arrives before the process ends.
   */
  async 'killed-while-sending'() {
    const { gc, ends, errors } = start();
    gc.tracker.start();
    await advance(2 * MINUTE);
    if (globalThis.__STORY__.relayRecords) relay.hangAfterRecord = true;
    else relay.hang = true;
    step('stop');
    await gc.tracker.stop();
    gc.tracker.flush();
    await advance(1000);
    step('killed');
    return { ends, errors, requests: relay.requests };
  },

  /**
   * A minute played and stopped offline (stored in the queue), then AsyncStorage refuses every write (Android's
   * SQLite: "database or disk is full") and two more minutes are played and stopped (held in memory). Then the
   * network returns and both are delivered, or (input `killed`) the app is killed first: the next start, its disk
   * still full, delivers the stored one.
   */
  async 'full-after-queued'() {
    const { gc, ends, errors } = start();
    await playAMinuteOffline(gc);
    storageFaults.full = true;
    gc.tracker.start();
    await advance(2 * MINUTE);
    step('stop full');
    await gc.tracker.stop();
    await advance(MINUTE);
    if (globalThis.__STORY__.killed) return { ends, errors };
    step('online');
    setOnline(true);
    await settle();
    await advance(MINUTE);
    await gc.dispose();
    return { ends, errors };
  },

  /** NetInfo's first state is unknown (`isConnected: null`): five minutes played, stopped and flushed are delivered by that flush. */
  async 'network-unknown-at-start'() {
    const { gc, ends, errors } = start();
    gc.tracker.start();
    await advance(5 * MINUTE);
    step('stop');
    await gc.tracker.stop();
    await gc.tracker.flush();
    const deliveredByFlush = relay.delivered.length;
    await gc.dispose();
    return { ends, errors, deliveredByFlush };
  },

  /** Killed two minutes into a session: the process ends here, nothing stopped; the disk goes to the next run. */
  async 'killed'() {
    const { gc } = start();
    step('start');
    gc.tracker.start(globalThis.__STORY__.startOptions);
    await advance(2 * MINUTE);
    return { running: gc.tracker !== undefined };
  },

  /**
   * Two minutes played, then the app goes to the background (`background_ms` there, its timers running) and the OS
   * kills it there, as Android and iOS do to a backgrounded app they need the memory of.
   */
  async 'killed-in-background'() {
    const { gc, ends } = start();
    gc.tracker.start();
    await advance(2 * MINUTE);
    setAppState('background');
    await advance(globalThis.__STORY__.backgroundMs);
    step('killed');
    return { ends };
  },

  /**
   * The guide's start() right after createGameCampaign: the id of that first session, with a Math.random that would
   * show if it were used (Hermes seeds its own with 32 bits: ids from it repeat across a game's players).
   */
  async 'first-id'() {
    Math.random = () => 0.5;
    const { gc } = start();
    const id = gc.tracker.start();
    await gc.dispose();
    return { id };
  },

  /** A minute played and stopped offline (queued), then killed two minutes into the next session. */
  async 'queued-then-killed'() {
    const { gc } = start();
    await playAMinuteOffline(gc);
    gc.tracker.start();
    await advance(2 * MINUTE);
    return { requests: relay.requests };
  },

  /** The next start on the same disk: the session is recovered from its last checkpoint and delivered. */
  async 'restarted'() {
    const { gc, ends, errors } = start();
    await settle();
    step('flush');
    await gc.tracker.flush();
    await gc.dispose();
    return { ends, errors };
  },

  /** Offline at stop: nothing arrives; NetInfo's "online" sends it without the game doing anything. */
  async 'offline-then-online'() {
    const { gc, ends, errors } = start();
    await playAMinuteOffline(gc);
    await advance(MINUTE); // an interval flush fails offline
    const deliveredOffline = relay.delivered.length;
    const requestsOffline = relay.requests;
    step('online');
    setOnline(true);
    await settle();
    const deliveredOnline = relay.delivered.length;
    await gc.dispose();
    return { ends, errors, deliveredOffline, requestsOffline, deliveredOnline };
  },

  /**
   * A train: NetInfo says connected for 1 s every 3 s, twenty times, and no request gets through (the relay unreachable
   * while connected); then a return where the relay answers. Math.random at 0.999 puts each backoff wait at its ceiling
   * (the session ids come from the secure source).
   */
  async 'flapping'() {
    Math.random = () => 0.999;
    const { gc, ends } = start();
    await playAMinuteOffline(gc);
    const before = relay.requests;
    for (let flip = 0; flip < 20; flip++) {
      setOnline(true);
      relay.online = false;
      await settle();
      await advance(1000);
      setOnline(false);
      await settle();
      await advance(2000);
    }
    const flappingRequests = relay.requests - before;
    step('online');
    await advance(5 * MINUTE);
    setOnline(true);
    await settle();
    const deliveredOnline = relay.delivered.length;
    await gc.dispose();
    return { ends, flappingRequests, deliveredOnline };
  },

  /**
   * NetInfo says connected but not reachable (its check of a Google URL is blocked) while the relay answers: the
   * session is delivered anyway, at stop, and nothing is reported.
   */
  async 'reachability-check-blocked'() {
    setProbeBlocked();
    await settle();
    const { gc, ends, errors } = start();
    gc.tracker.start();
    await advance(5 * MINUTE);
    step('stop');
    await gc.tracker.stop();
    await advance(MINUTE);
    await gc.dispose();
    return { ends, errors };
  },

  /**
   * react-native-get-random-values without its native module: createGameCampaign fails at once, as with no source at
   * all, instead of a tracker whose first ids come from Math.random.
   */
  async 'random-module-missing'() {
    Math.random = () => 0.5;
    try {
      const { gc } = start();
      const id = gc.tracker.start();
      await gc.dispose();
      return { id };
    } catch (error) {
      return { error: `${error.name}: ${error.message}`, code: error.code };
    }
  },

  /** A minute played, thirty seconds in the background, a minute played: two minutes count. */
  async 'background'() {
    const { gc, ends, errors } = start();
    await playAroundBackground(gc, 30000);
    return { ends, errors };
  },

  /**
   * A minute played, five in the background (past the 60 s time-out), a minute played, with nothing but the guide's
   * set-up: the tracker ends the session at the background and continues by itself on return, so both minutes are
   * delivered.
   */
  async 'long-background'() {
    const { gc, ends, errors } = start();
    const continues = [];
    gc.tracker.on('session:start', (event) => continues.push(event.continues ?? null));
    await playAroundBackground(gc, 5 * MINUTE);
    return { ends, errors, continues };
  },

  /** The campaign page through Linking: a PKCE pair hashed on Hermes (no digest of its own), a token from the relay. */
  async 'webview'() {
    const { gc } = start();
    step('open');
    await gc.webview.open({ campaignId: 'spring-event' });
    await gc.dispose();
    return { openedUrls, webviewRequests: relay.webviewRequests };
  },

  /**
   * The guide's web view host made and passed, but `<webView.Host />` not rendered (a screen that renders it not shown
   * yet, or forgotten): the campaign page opened online, then offline. React and WebView stand in (a Host never
   * rendered calls neither).
   */
  async 'webview-host-not-rendered'() {
    const webView = createWebViewHost({ React: { createElement() {}, useSyncExternalStore() {} }, WebView() {}, Linking });
    const { gc } = start({}, { WebView: webView });
    await settle();
    const refusal = async () => gc.webview.open({ campaignId: 'spring-event' }).then(() => 'opened', (error) => `${error.name} ${error.code} ${error.message}`);
    const requestsBefore = relay.requests;
    step('open online');
    const online = await refusal();
    setOnline(false);
    await settle();
    step('open offline');
    const offline = await refusal();
    const requests = relay.requests - requestsBefore;
    await gc.dispose();
    return { online, offline, requests, webviewRequests: relay.webviewRequests, openedUrls };
  },

  /**
   * The creator picker from its own entry (`picker: creatorPicker`): it loads the campaign, its creators and the
   * boost, and a change the service refuses inside the cooldown (its clock, not the device's, is
   * the authority; the error is a class of the main entry's file) shows the days the service stated. Without the option, `gc.picker` says what to pass.
   */
  async 'picker'() {
    let withoutPicker;
    try {
      start().gc.picker({ campaignId: 'spring-event' });
    } catch (error) {
      withoutPicker = `${error.name}: ${error.message}`;
    }
    const { gc } = start({ picker: creatorPicker });
    const picker = gc.picker({ campaignId: 'spring-event' });
    step('load');
    await picker.reload();
    const loaded = { creators: picker.state.creators.map((creator) => creator.creatorKey), boosted: picker.state.boost && picker.state.boost.creatorKey, cooldownDays: picker.state.cooldownDays };
    picker.select('FGHIJ');
    step('confirm');
    const confirmed = await picker.confirm();
    const refused = { confirmed: confirmed === undefined ? null : confirmed, error: picker.state.error && picker.state.error.name, cooldownDays: picker.state.cooldownDays, canConfirm: picker.state.canConfirm };
    picker.dispose();
    await gc.dispose();
    return { withoutPicker, loaded, refused, boostChanges: relay.boostChanges };
  },

  /**
   * The picker's creators search, on React Native 0.70's AbortController (no `reason`): a search the player replaces
   * while it is in flight is aborted and its answer (never coming) ignored; the second one's results show.
   */
  async 'search'() {
    const { gc } = start({ picker: creatorPicker });
    const picker = gc.picker({ campaignId: 'spring-event' });
    step('load');
    await picker.reload();
    picker.search('slow');
    await advance(1000);
    step('search');
    picker.search('Gra');
    await advance(1000);
    const shown = { query: picker.state.query, results: picker.state.results && picker.state.results.map((creator) => creator.creatorKey), searching: picker.state.searching, error: picker.state.error ? String(picker.state.error) : null };
    picker.dispose();
    await gc.dispose();
    return { shown, searches: relay.searches };
  },

  /** A minute played offline (queued), then the player asks for their data to be deleted: nothing is sent once online, nothing stays stored. */
  async 'delete-stored-data'() {
    const { gc, ends, errors } = start();
    await playAMinuteOffline(gc);
    step('delete');
    await gc.tracker.deleteStoredData();
    setOnline(true);
    await settle();
    await advance(5 * MINUTE);
    step('dispose');
    await gc.dispose();
    return { ends, errors, requests: relay.requests };
  },

  /**
   * An Expo app as the guide sets it up: `import * as ExpoCrypto from 'expo-crypto'` passed as `modules.expoCrypto`
   * instead of importing react-native-get-random-values (the story runs with `random: 'none'`). A minute played and
   * delivered, then the campaign page opened (its PKCE challenge hashed by expo-crypto's digest).
   */
  async 'expo-crypto'() {
    // `expoCrypto: 'v12.2'`: expo-crypto 12.2.1 (Expo SDK 48, the first with getRandomValues), else 57.0.3.
    const ExpoCrypto = globalThis.__STORY__.expoCrypto === 'v12.2' ? require('expo-crypto-v12-2') : require('expo-crypto');
    const { expoCalls } = require('./expo.js');
    const polyfilled = typeof globalThis.crypto === 'object' && typeof globalThis.crypto.getRandomValues === 'function';
    const { gc, ends, errors } = start({}, { expoCrypto: ExpoCrypto });
    const ids = [];
    gc.tracker.on('session:start', (event) => ids.push(event.sessionId));
    gc.tracker.start();
    await advance(MINUTE);
    await gc.tracker.stop();
    await gc.tracker.flush();
    await gc.webview.open({ campaignId: 'spring-event' });
    await gc.dispose();
    return { ends, errors, ids, polyfilled, expoCalls, openedUrls, webviewRequests: relay.webviewRequests };
  },

  /**
   * The OS launches the app in the background (a push, a background fetch): the guide's lines start a session as the
   * app loads; 10 s there, then suspended for 3 hours; then the player opens the app and plays a minute.
   */
  async 'launched-in-background'() {
    setAppState('background');
    const { gc, ends, errors } = start();
    const starts = [];
    gc.tracker.on('session:start', (event) => starts.push(event.continues ? 'continues' : 'new'));
    gc.tracker.start();
    await advance(10000);
    sleep(3 * 60 * MINUTE);
    step('opened');
    await backAndStop(gc);
    return { ends, errors, starts };
  },

  /**
   * A session whose metadata makes it over 2 MB (AsyncStorage on Android cannot read such an entry back): played 20 s
   * and stopped, then a small one played 5 s and stopped.
   */
  async 'over-2mb'() {
    const { gc, ends, errors } = start();
    const dropped = [];
    gc.tracker.on('dropped', (event) => dropped.push(`${event.sessionId} ${event.reason}`));
    const big = gc.tracker.start({ metadata: { replay: 'x'.repeat(2200000) } });
    await advance(20000);
    step('stop');
    await gc.tracker.stop();
    await gc.tracker.flush();
    const small = gc.tracker.start();
    await advance(5000);
    await gc.tracker.stop();
    await gc.tracker.flush();
    await gc.dispose();
    const stored = [disk.legacy, ...Object.values(disk.databases)].flatMap((database) => Object.values(database));
    return { ends, errors, dropped, big, small, largestStored: Math.max(0, ...stored.map((value) => String(value).length)) };
  },

  /**
   * React 19 StrictMode in development: the effect that creates the SDK (as the sample's does) runs, its clean-up
   * disposes without awaiting, and it runs again at once, same player and storage (input `startInEffect`: each run
   * also starts a session, as the guide's lines do right after createGameCampaign). Then a level is played with the
   * second SDK (start, two minutes, stop) and the app goes to the background for a minute.
   */
  async 'strict-mode'() {
    const starts = [];
    const dropped = [];
    const effect = () => {
      const made = start();
      made.gc.tracker.on('session:start', (event) => starts.push(event.sessionId));
      made.gc.tracker.on('dropped', (event) => dropped.push(event.reason));
      if (globalThis.__STORY__.startInEffect) made.gc.tracker.start();
      return { made, cleanup: () => void made.gc.dispose() };
    };
    const first = effect();
    first.cleanup();
    const { made } = effect();
    const { gc } = made;
    step('level');
    if (!globalThis.__STORY__.startInEffect) gc.tracker.start();
    await advance(2 * MINUTE);
    await gc.tracker.stop();
    step('background');
    setAppState('background');
    await advance(MINUTE);
    const left = { appState: appState.listeners.size, netInfo: netInfoListeners };
    return { first: { ends: first.made.ends, errors: first.made.errors }, ends: made.ends, errors: made.errors, starts, dropped, left };
  },

  /**
   * iOS's control centre pulled down mid-session (`inactive` 10 s, then `active` again: no `background`), a minute
   * more, then the app in the background `backgroundMs` (its timers running) and back: a minute played and stopped.
   */
  async 'control-centre-then-background'() {
    const { gc, ends, errors } = start();
    gc.tracker.start();
    await advance(MINUTE);
    setAppState('inactive');
    await advance(10000);
    setAppState('active');
    await advance(MINUTE);
    setAppState('background');
    await advance(globalThis.__STORY__.backgroundMs);
    await backAndStop(gc);
    return { ends, errors };
  },

  /** The next start on the same disk, offline: a minute there (nothing can be sent), then the network returns (a minute more). */
  async 'restarted-offline'() {
    setOnline(false);
    await settle();
    const { gc, ends, errors } = start();
    await advance(MINUTE);
    const offline = { ends: ends.slice(), delivered: relay.delivered.length };
    step('online');
    setOnline(true);
    await settle();
    const deliveredAtReturn = relay.delivered.length;
    await advance(MINUTE);
    await gc.dispose();
    return { ends, errors, offline, deliveredAtReturn };
  },

  /** dispose() leaves no AppState or NetInfo listener and no timer; later OS events reach nothing. */
  async 'dispose'() {
    const { gc, ends, errors } = start();
    gc.tracker.start();
    await advance(10000);
    const live = { appState: appState.listeners.size, netInfo: netInfoListeners, timers: pendingTimers() };
    step('dispose');
    await gc.dispose();
    const left = { appState: appState.listeners.size, netInfo: netInfoListeners, timers: pendingTimers() };
    const requestsAtDispose = relay.requests;
    setOnline(false);
    setOnline(true);
    setAppState('background');
    setAppState('active');
    await advance(10 * MINUTE);
    return { ends, errors, live, left, requestsAfter: relay.requests - requestsAtDispose };
  },
};

(async () => {
  try {
    const outcome = await stories[story]();
    print(`RESULT ${JSON.stringify({ story, storage, netInfo, random, outcome, delivered: relay.delivered, answered: relay.answered, disk })}`);
  } catch (error) {
    print(`RESULT ${JSON.stringify({ story, storage, netInfo, random, error: String(error), stack: String(error && error.stack) })}`);
  }
})();
