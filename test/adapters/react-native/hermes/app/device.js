/**
 * The device under the story app, on the Hermes VM (the `hermes` CLI, which has no React Native runtime):
 * - the native modules the real packages look up, answering as their specs say, over one `disk` object that the
 *   test carries from one VM run to the next (an app killed and started again):
 *   AsyncStorage 3.x `RNAsyncStorage` (TurboModuleRegistry.get, src/native-module/NativeAsyncStorage.ts: promises,
 *   named databases + the `legacy_*` store, which is 2.x's storage: `createAsyncStorage.native.ts` calls it "the
 *   legacy (v2) AsyncStorage implementation", Android's `RKStorage` database), AsyncStorage 2.x `RNCAsyncStorage` (TurboModuleRegistry.get,
 *   src/RCTAsyncStorage.ts + src/NativeAsyncStorageModule.ts: callbacks `(errors, result)`), which 1.23.1 looks
 *   up alike and 1.17.3 in `NativeModules` (their src/RCTAsyncStorage.ts; src/AsyncStorage.native.ts calls the same
 *   callbacks, `getAllKeys`' with one error, not a list), NetInfo 9.3.5, 11.4.1 and 12
 *   `RNCNetInfo` (NativeModules, src/internal/nativeModule.ts: `getCurrentState()` and the
 *   `netInfo.networkStatusDidChange` event), react-native-get-random-values `RNGetRandomValues` (2.0.0:
 *   TurboModuleRegistry.getEnforcing; 1.8.0 and 1.11.0: NativeModules; index.js: `getRandomBase64(byteLength)`, a
 *   synchronous method returning base64: 1.x's android/.../RNGetRandomValuesModule.java
 *   `@ReactMethod(isBlockingSynchronousMethod = true)`, `Base64.encodeToString(data, Base64.NO_WRAP)`);
 * - AppState's state and listeners; Linking;
 * - a virtual clock: `Date.now`, `performance.now` and the timers run on it and move only when a story calls
 *   `advance(ms)`. The CLI's own `setTimeout` runs in real time and an interval would keep the VM alive, so the
 *   SDK gets these; the CLI's `setTimeout(fn, 0)` is kept for the native modules' answers (`later`) and `settle()`;
 * - React Native 0.70's `AbortController` where the VM has none: the real `abort-controller` 3.0.0 that RN installs
 *   in Libraries/Core/setUpXHR.js (`abort()` takes no reason and its signal has no `reason`);
 * - `console` (React Native's bundle installs one first: @react-native/js-polyfills), printed as `CONSOLE` lines;
 * - `fetch`: the relay, which records every session once and answers a repeated `sessionId` SKIPPED, as the
 *   service does (spec: POST /playtime/sessions/bulk, "an existing sessionId is SKIPPED"), and hands out web view
 *   tokens (`POST /webview/ott`, keeping the request and its PKCE challenge); offline, it fails as React
 *   Native's fetch does (`TypeError: Network request failed`).
 */
const hostSetTimeout = globalThis.setTimeout;

// --- console as React Native has it ------------------------------------------------------------------
// A React Native bundle starts with @react-native/js-polyfills' console.js (the `getPolyfills` of
// @react-native/metro-config), so `console` exists before any module runs; the CLI has none. Printed as `CONSOLE` lines.
// Its methods as that file's `global.console` has them: `assert` too (event-target-shim, under React Native 0.70's
// AbortController polyfill, calls `console.assert` at every dispatch), and stubs for the timing ones.
if (typeof globalThis.console === 'undefined') {
  const log = (level) => (...args) => print(`CONSOLE ${level} ${args.map(String).join(' ')}`);
  const stub = () => {};
  globalThis.console = {
    log: log('log'), info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug'), trace: log('trace'), table: log('table'),
    group: log('group'), groupCollapsed: log('group'), groupEnd: stub, time: stub, timeEnd: stub, timeStamp: stub, count: stub, countReset: stub,
    assert: (expression, label) => void (expression || print(`CONSOLE error Assertion failed: ${label}`)),
  };
}
const input = globalThis.__STORY__ || {};

/** What survives the process: the storage of every store. */
export const disk = input.disk || { databases: {}, legacy: {} };

// --- clock and timers -------------------------------------------------------------------------------
const EPOCH = Date.UTC(2026, 2, 1, 12, 0, 0);
const clock = { wall: EPOCH + (input.startOffsetMs || 0), monotonic: 0 };
const timers = new Map();
let nextTimer = 1;
const schedule = (fn, ms, every, args) => {
  const id = nextTimer++;
  timers.set(id, { at: clock.monotonic + Math.max(0, Number(ms) || 0), fn, every, args });
  return id;
};
globalThis.setTimeout = (fn, ms, ...args) => schedule(fn, ms, undefined, args);
globalThis.setInterval = (fn, ms, ...args) => schedule(fn, ms, Math.max(1, Number(ms) || 0), args);
globalThis.clearTimeout = globalThis.clearInterval = (id) => void timers.delete(id);
Date.now = () => clock.wall;
globalThis.performance = { now: () => clock.monotonic };

/** Native answers on their way back (tasks the CLI's `setTimeout(fn, 0)` queued). */
let answersDue = 0;

/**
 * Lets the app run until it waits for nothing but the clock: one task of the CLI's own queue after another,
 * until no native answer is due. (The VM runs with `-Xmicrotask-queue`: all promise jobs run before the next task.)
 */
export async function settle() {
  for (let turn = 0; turn < 100000; turn++) {
    await new Promise((resolve) => hostSetTimeout(resolve, 0));
    if (answersDue === 0) return;
  }
  throw new Error('settle: the app never went idle');
}

/** Moves the clock by `ms`, firing each timer due on the way in order, the app's promises settled after each. */
export async function advance(ms) {
  const end = clock.monotonic + ms;
  for (;;) {
    let due;
    for (const [id, timer] of timers) if (timer.at <= end && (!due || timer.at < due[1].at)) due = [id, timer];
    if (!due) break;
    const [id, timer] = due;
    clock.wall += timer.at - clock.monotonic;
    clock.monotonic = timer.at;
    if (timer.every) timer.at += timer.every;
    else timers.delete(id);
    timer.fn(...timer.args);
    await settle();
  }
  clock.wall += end - clock.monotonic;
  clock.monotonic = end;
  await settle();
}

/**
 * The app suspended for `ms` (iOS suspends a backgrounded app; Android's `performance.now()`, uptimeMillis, stops while
 * the phone sleeps): the wall clock moves, the monotonic clock does not, and no timer fires.
 */
export function sleep(ms) {
  clock.wall += ms;
}

/** Timers the app still has pending. */
export const pendingTimers = () => timers.size;

// --- AbortController as React Native 0.70 has it -----------------------------------------------------
// The real `abort-controller` 3.0.0, as React Native 0.70's Libraries/Core/setUpXHR.js installs it where the engine
// has none: `polyfillGlobal('AbortController', () => require('abort-controller/dist/abort-controller').AbortController)`
// (and `AbortSignal` alike). Its `abort()` takes no reason and its signal has no `reason`.
if (typeof globalThis.AbortController !== 'function') {
  const { AbortController, AbortSignal } = require('abort-controller/dist/abort-controller');
  globalThis.AbortController = AbortController;
  globalThis.AbortSignal = AbortSignal;
}

// --- native modules ----------------------------------------------------------------------------------
/**
 * A string as native code receives it: JSI hands a module (and fetch's XHR) UTF-8 made by Hermes'
 * `HermesRuntimeImpl::utf8` (API/hermes/hermes.cpp), whose `convertUTF16ToUTF8WithReplacements` writes a lone
 * surrogate as U+FFFD. Each pair stays.
 */
export const nativeText = (text) => text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g, (c) => (c.length > 1 ? c : '\ufffd'));
const copy = (value) => (value === null || value === undefined ? null : nativeText(String(value)));
const database = (name) => (disk.databases[name] = disk.databases[name] || {});

/**
 * A native call's answer arrives as a new task of the JS thread (the bridge, or the JS call invoker of a
 * TurboModule), never within the promise jobs of the call that made it: a JS thread busy with promise jobs
 * hears nothing back.
 */
const later = (fn) => {
  answersDue++;
  hostSetTimeout(() => {
    answersDue--;
    fn();
  }, 0);
};
export const answer = (fn) => new Promise((resolve, reject) => later(() => {
  try {
    resolve(fn());
  } catch (error) {
    reject(error);
  }
}));

/**
 * Storage faults a story sets (or its input, `storageFaults`): `full` (every write refused as Android's SQLite refuses
 * it on a full disk, SQLiteFullException "database or disk is full (code 13 SQLITE_FULL)"), `keysFailures` (that many
 * `getKeys` calls refused first, SQLITE_BUSY; 1.x/2.x's `getAllKeys`), `getFailures` (that many reads of a key containing `getFailing` refused, SQLITE_BUSY;
 * 3.x's `getValues`, 1.x/2.x's `multiGet` with its errors array), `hang` (every call left unanswered: 3.x's promise never settles, 1.x/2.x's callback is never called); `full` covers 1.x/2.x's `multiSet` too.
 */
export const storageFaults = { full: false, keysFailures: 0, getFailures: 0, getFailing: '', hang: false, ...input.storageFaults };
const fault = (fn) => (...args) => (storageFaults.hang ? new Promise(() => {}) : fn(...args));
const silent = (fn) => (...args) => void (storageFaults.hang || fn(...args));
/** What Android's SQLite says when the database reached its size limit or the disk is full (SQLiteFullException). */
const FULL = 'database or disk is full (code 13 SQLITE_FULL)';
/** What Android's SQLite says of a database another connection holds (SQLiteDatabaseLockedException). */
const BUSY = 'database is locked (code 5 SQLITE_BUSY)';
/** Whether this `getKeys` (1.x/2.x: `getAllKeys`, its one error) is one of the `keysFailures` refused. */
const refusedKeys = () => storageFaults.keysFailures > 0 && storageFaults.keysFailures-- > 0;
/** Whether this read of `keys` is one of the `getFailures` refused (only reads of a key containing `getFailing`). */
const refusedRead = (keys) => storageFaults.getFailures > 0 && keys.some((key) => key.includes(storageFaults.getFailing)) && storageFaults.getFailures-- > 0;

/** AsyncStorage 3.x's `RNAsyncStorage` (NativeAsyncStorage.ts): promises. */
const RNAsyncStorage = {
  getValues: fault((name, keys) => answer(() => {
    if (refusedRead(keys)) throw new Error(BUSY);
    return keys.map((key) => ({ key, value: key in database(name) ? database(name)[key] : null }));
  })),
  setValues: fault((name, entries) => answer(() => {
    if (storageFaults.full) throw new Error(FULL);
    return entries.map(({ key, value }) => ((database(name)[key] = copy(value)), { key, value }));
  })),
  removeValues: fault((name, keys) => answer(() => void keys.forEach((key) => delete database(name)[key]))),
  getKeys: fault((name) => answer(() => {
    if (refusedKeys()) throw new Error(BUSY);
    return Object.keys(database(name));
  })),
  clearStorage: (name) => answer(() => void (disk.databases[name] = {})),
  legacy_multiGet: (keys) => answer(() => keys.map((key) => [key, key in disk.legacy ? disk.legacy[key] : null])),
  legacy_multiSet: (pairs) => answer(() => void pairs.forEach(([key, value]) => (disk.legacy[key] = copy(value)))),
  legacy_multiRemove: (keys) => answer(() => void keys.forEach((key) => delete disk.legacy[key])),
  legacy_multiMerge: () => answer(() => {
    throw new Error('not used by the SDK');
  }),
  legacy_getAllKeys: () => answer(() => Object.keys(disk.legacy)),
  legacy_clear: () => answer(() => void (disk.legacy = {})),
};

/** AsyncStorage 2.x's `RNCAsyncStorage` (NativeAsyncStorageModule.ts): callbacks, over the storage 3.x calls legacy. */
const RNCAsyncStorage = {
  multiGet: silent((keys, callback) =>
    later(() => (refusedRead(keys) ? callback([{ message: BUSY }], null) : callback(null, keys.map((key) => [key, key in disk.legacy ? disk.legacy[key] : null]))))),
  multiSet: silent((pairs, callback) => later(() => (storageFaults.full ? callback([{ message: FULL }]) : (pairs.forEach(([key, value]) => (disk.legacy[key] = copy(value))), callback(null))))),
  multiRemove: silent((keys, callback) => later(() => (keys.forEach((key) => delete disk.legacy[key]), callback(null)))),
  multiMerge: (_pairs, callback) => later(() => callback([{ message: 'not used by the SDK' }])),
  getAllKeys: silent((callback) => later(() => (refusedKeys() ? callback({ message: BUSY }) : callback(null, Object.keys(disk.legacy))))),
  clear: (callback) => later(() => ((disk.legacy = {}), callback(null))),
};

/** NetInfo's `RNCNetInfo`: Android and iOS report reachability themselves (no JS probe). */
const netListeners = new Set();
/**
 * The state the native module reports at start: connected, or (input `netInfoAtStart: 'unknown'`) NetInfo's unknown
 * state, `isConnected: null` (its types.ts `NetInfoUnknownState`: what Android and iOS report before their first
 * reading of the network), the relay reachable all the same.
 */
let netState = input.netInfoAtStart === 'unknown' ? { type: 'unknown', isConnected: null, isInternetReachable: null, details: null } : { type: 'wifi', isConnected: true, isInternetReachable: true, details: null };
const RNCNetInfo = {
  getCurrentState: () => answer(() => netState),
  configure() {},
  addListener() {},
  removeListeners() {},
};

/**
 * react-native-get-random-values' `RNGetRandomValues`: base64 of bytes from a seeded generator (deterministic runs;
 * a story that starts the app again passes another `seed`, as a phone's next start draws other bytes).
 */
let seed = input.seed || 1;
/** The device's next random byte (every native random source draws from it). */
export function randomByte() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return (seed >>> 8) & 255;
}
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const RNGetRandomValues = {
  getRandomBase64(byteLength) {
    let bits = '';
    for (let i = 0; i < byteLength; i++) bits += randomByte().toString(2).padStart(8, '0');
    let text = '';
    for (let i = 0; i < bits.length; i += 6) text += BASE64[parseInt(bits.slice(i, i + 6).padEnd(6, '0'), 2)];
    return text + '='.repeat((4 - (text.length % 4)) % 4);
  },
};

export const nativeModules = { RNAsyncStorage, RNCAsyncStorage, RNCNetInfo, RNGetRandomValues };
/** An app with react-native-get-random-values' JavaScript but not its native module (installed, the app not rebuilt). */
if (input.withoutRandomModule) delete nativeModules.RNGetRandomValues;

/** The native event emitter's listeners, by event name. */
export const nativeEvents = { 'netInfo.networkStatusDidChange': netListeners };

/** The OS reports a network change. */
export function setOnline(online) {
  netState = { type: online ? 'wifi' : 'none', isConnected: online, isInternetReachable: online, details: null };
  relay.online = online;
  for (const listener of Array.from(netListeners)) listener(netState);
}

/**
 * Connected, and the relay answers, but NetInfo's own reachability check fails: on iOS NetInfo decides
 * `isInternetReachable` with a request to its `reachabilityUrl` (https://clients3.google.com/generate_204 by
 * default, src/internal/defaultConfiguration.ts), which a network that blocks Google (mainland China, some firewalls)
 * never answers, so it stays `false` (react-native-netinfo issues 147 and 199).
 */
export function setProbeBlocked() {
  netState = { type: 'wifi', isConnected: true, isInternetReachable: false, details: null };
  for (const listener of Array.from(netListeners)) listener(netState);
}

// --- AppState and Linking ----------------------------------------------------------------------------
export const appState = { currentState: 'active', listeners: new Set() };

/** The OS moves the app: 'active', 'inactive' or 'background'. */
export function setAppState(state) {
  appState.currentState = state;
  for (const listener of Array.from(appState.listeners)) listener(state);
}

export const openedUrls = [];

// --- the relay ---------------------------------------------------------------------------------------
export const RELAY_URL = 'https://game.example/campaign';
/** `delivered` is the service's (it outlives the app): carried between runs like the disk. */
export const relay = { online: true, hang: false, hangAfterRecord: false, requests: 0, delivered: input.delivered || [], answered: [], webviewRequests: [], boostChanges: [], searches: [] };

/** The service's Client API (Sandbox), as the creator picker reads it: one campaign, two creators, a boost of 31 days ago. */
const API = 'https://sandbox-api.game-campaign.com/v1/client';
const CREATOR = (creatorKey, name) => ({ creatorKey, name, profileImageUrl: null, sponsorCount: 0 });
const API_ANSWERS = {
  [`${API}/campaigns/spring-event`]: { campaignId: 'spring-event', name: 'Spring Event' },
  [`${API}/campaigns/spring-event/creators`]: [CREATOR('ABCDE', 'Ada'), CREATOR('FGHIJ', 'Grace')],
  [`${API}/sponsors/user/player-1`]: { userId: 'player-1', creatorKey: 'ABCDE', campaignId: 'spring-event', sponsoredAt: new Date(Date.now() - 31 * 86400000).toISOString() },
};

/** JSON with every character past ASCII escaped (`\\uXXXX`): the RESULT line keeps a lone surrogate readable. */
const asciiJson = (value) => JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

globalThis.fetch = async (url, init) => {
  relay.requests++;
  if (init && typeof init.body === 'string') init = { ...init, body: nativeText(init.body) };
  if (!relay.online) throw new TypeError('Network request failed');
  // A request that never settles (React Native 0.70's fetch: no answer, no error, the signal's abort unheard).
  if (relay.hang) return new Promise(() => {});
  const respond = (status, body) => ({
    ok: status >= 200 && status < 300,
    status,
    statusText: '',
    url,
    headers: { get: () => null, has: () => false, forEach() {} },
    text: async () => JSON.stringify(body),
    json: async () => body,
  });
  if (url in API_ANSWERS && init.method === 'GET') return respond(200, { data: API_ANSWERS[url] });
  // Creators search (`GET /v1/client/creators/search?q=`): names that start with the query. A query of `slow` never
  // answers (its abort unheard, as `relay.hang`), for a search the player replaces before it returns.
  if (url.startsWith(`${API}/creators/search?`) && init.method === 'GET') {
    const query = decodeURIComponent(/[?&]q=([^&]*)/.exec(url)[1]).toLowerCase();
    relay.searches.push(query);
    if (query === 'slow') return new Promise(() => {});
    return respond(200, { data: API_ANSWERS[`${API}/campaigns/spring-event/creators`].filter((creator) => creator.name.toLowerCase().startsWith(query)) });
  }
  if (url === `${RELAY_URL}/sponsor` && init.method === 'PUT') {
    // The service refuses a change inside the 30-day cooldown with a BAD_REQUEST stating the days remaining.
    relay.boostChanges.push(JSON.parse(init.body));
    return respond(400, { code: 'BAD_REQUEST', message: 'Boost can be changed again in 27 days' });
  }
  if (url === `${RELAY_URL}/webview/ott` && init.method === 'POST') {
    relay.webviewRequests.push(JSON.parse(init.body));
    return respond(200, { data: { ott: 'ott-1', url: 'https://campaign.example/page', expiresAt: new Date(Date.now() + 60000).toISOString() } });
  }
  if (url !== `${RELAY_URL}/playtime/sessions` || init.method !== 'POST') return respond(404, { code: 'NOT_FOUND', message: `no route ${url}` });
  // The relay's body cap, 1 MiB (core/relay/relay.ts `maxBodyBytes`), refused as it refuses it: 413 in the spec's error body.
  if (init.body.length > 1024 * 1024) return respond(413, { status: 413, error: 'Payload Too Large', code: 'BAD_REQUEST', message: 'The body exceeds the relay limit' });
  const { sessions } = JSON.parse(init.body);
  const results = sessions.map((session) => {
    const known = relay.delivered.some((seen) => seen.sessionId === session.sessionId);
    if (!known) relay.delivered.push({ sessionId: session.sessionId, durationSeconds: session.durationSeconds, campaignId: session.campaignId, ...(session.metadata && { metadata: asciiJson(session.metadata) }) });
    return { sessionId: session.sessionId, status: known ? 'SKIPPED' : 'SUCCESS' };
  });
  relay.answered.push(...results.map((result) => result.status));
  // The service recorded them, and its answer never arrives.
  if (relay.hangAfterRecord) return new Promise(() => {});
  return respond(200, { data: { results } });
};
