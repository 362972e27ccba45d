/**
 * The React Native {@link Platform} (bare RN and Expo) from injected modules: AsyncStorage 1.x, 2.x or 3.x,
 * AppState, NetInfo when given, a secure random source (Hermes has none built in), a web view host or
 * `Linking`. The package imports no React Native module; nothing is read at import.
 * @see DESIGN section 4, docs/guides/react-native.md
 */
import { chainLock } from '../../core/chain-lock.js';
import { SHARED_NAMESPACE } from '../../core/tracker/game-namespace.js';
import type { FetchLike, Lifecycle, NetworkStatus, Platform } from '../../core/platform.js';
import { fromGetRandomValues, getRandomValuesOf, hostCrypto, type GetRandomValues } from '../shared/crypto-parts.js';
import { CryptoUnavailableError } from '../shared/errors.js';
import { watchedNetwork } from '../shared/watched-network.js';
import { asyncStorage, type AsyncStorageShape } from './storage.js';
import type { AppStateLike, NetInfoLike, RandomValuesFill, ReactNativeModules, ReactNativePlatformOptions } from './types.js';
import { reactNativeWebView } from './web-view.js';

/**
 * The locks of every React Native platform in this JavaScript context (`Platform.lock`). A running tracker holds one
 * for its life: an SDK created again while another runs (Fast Refresh re-running the module, a screen mounted twice)
 * waits for it before it takes that tracker's running session for a crashed one, instead of sending it ended at its
 * last checkpoint (the live tracker's whole session then SKIPPED). One app is one context per store.
 */
const locks = new Map<string, Promise<void>>();

/** The React Native platform, with the AsyncStorage API it found. */
export interface ReactNativePlatform extends Platform {
  readonly storageShape: AsyncStorageShape;
}

/**
 * Creates the platform.
 * @throws TypeError when AsyncStorage or AppState is missing or malformed; {@link CryptoUnavailableError} when
 * no secure random source exists, or the installed `crypto.getRandomValues` throws (never falls back to `Math.random`)
 * @example
 * ```ts
 * import 'react-native-get-random-values';
 * import * as AsyncStorage from '@react-native-async-storage/async-storage';
 * import { AppState, Linking } from 'react-native';
 * const platform = createReactNativePlatform({ modules: { AsyncStorage, AppState, Linking } });
 * ```
 */
export function createReactNativePlatform(options: ReactNativePlatformOptions): ReactNativePlatform {
  return reactNativePlatform(options, () => [`${options.storageKey ?? SHARED_NAMESPACE}:`]);
}

/**
 * {@link createReactNativePlatform}, with the keys to move out of AsyncStorage 3.x's legacy store (`legacyKeys()`, read
 * on the first storage call): the React Native `createGameCampaign` names the game's own namespace there too (what
 * it wrote on AsyncStorage 2.x), where the platform alone names its `storageKey`.
 */
export function reactNativePlatform(options: Omit<ReactNativePlatformOptions, 'storageKey'>, legacyKeys: () => readonly string[]): ReactNativePlatform {
  const { modules } = options;
  // A missing AsyncStorage is refused there, with the module to pass.
  const storage = asyncStorage(modules?.AsyncStorage, options.storageName ?? 'game-campaign', legacyKeys);
  if (typeof modules.AppState?.addEventListener !== 'function') throw new TypeError('createReactNativePlatform: pass modules.AppState from react-native');
  const randomBytes = fromGetRandomValues(secureRandom(modules) as GetRandomValues);
  // React Native always has `performance.now()`: InitializeCore installs it where the native one is missing
  // (react-native Libraries/Core/setUpPerformance.js), so the shared clock's Date.now() fallback is not carried here.
  const lifecycle = appStateLifecycle(modules.AppState, () => performance.now());
  return {
    ...storage,
    lifecycle,
    lock: (name, task) => chainLock(locks, name, task),
    // SHA-256 from expo-crypto's digest when given, else ../shared/sha256-compact.ts loaded on the first hash
    // (not @noble/hashes: Metro would put it in every app). fromGetRandomValues only ever passes Uint8Array
    // slices, all a RandomValuesFill takes. Every source here is synchronous: `randomBytesSync` gives the ids of
    // sessions started at once (the guide's start() right after createGameCampaign) instead of Hermes' Math.random.
    crypto: {
      // A Promise of what an async function would give (a throw rejects it), without an async function's lowered code.
      randomBytes: (n) => new Promise((resolve) => resolve(randomBytes(n))),
      sha256: async (data) => {
        const digest = modules.expoCrypto?.digest;
        return digest ? new Uint8Array(await digest('SHA-256', new Uint8Array(data))) : (await import('../shared/sha256-compact.js')).sha256(data);
      },
      randomBytesSync: randomBytes,
    },
    // assumed: RN's fetch (whatwg-fetch over XHR) drops `keepalive`; nothing relies on it, because the queue
    // keeps every session until the relay acknowledged it, so a request cut by the app's suspension is retried.
    fetch: options.fetch ?? ((input, init) => (globalThis as { fetch: FetchLike }).fetch(input, init)),
    ...reactNativeWebView(modules.WebView, modules.Linking),
    ...(modules.NetInfo && { network: netInfoNetwork(modules.NetInfo) }),
    now: () => Date.now(),
    monotonic: lifecycle.m,
  };
}

/**
 * The injected source, else a `crypto.getRandomValues` a polyfill installed, tried once here; else a loud failure.
 * The polyfill's JavaScript is there even when its native module is not (react-native-get-random-values installed
 * but the app not rebuilt): its `getRandomValues` then throws at every call, and the tracker's first ids would come
 * from Hermes' `Math.random`.
 */
function secureRandom(modules: ReactNativeModules): RandomValuesFill {
  const host = getRandomValuesOf(hostCrypto());
  const source = modules.getRandomValues ?? getRandomValuesOf(modules.expoCrypto) ?? host;
  if (!source) {
    throw new CryptoUnavailableError(
      "no crypto.getRandomValues on Hermes: import 'react-native-get-random-values' first, or pass modules.expoCrypto (expo-crypto 12.2+) or modules.getRandomValues",
    );
  }
  if (source === host) {
    try {
      host(new Uint8Array(1));
    } catch (error) {
      throw new CryptoUnavailableError(`crypto.getRandomValues failed (${error}): rebuild the app with its native module`);
    }
  }
  return source;
}

/**
 * `AppState` 'change': `background` is the background, `active` the foreground; iOS's passing `inactive`
 * (a call, the app switcher) changes nothing. One AppState subscription, removed with `.remove()` when the
 * last listener leaves. `isInBackground` reads `currentState` as a tracker starts: an app the OS launched in the
 * background (a background fetch, a push, a location update) announces nothing until it is opened, and its time
 * there is not play.
 */
function appStateLifecycle(appState: AppStateLike, clock: () => number): Lifecycle & { m: () => number } {
  // The listeners of each state: [foreground, background], indexed by `+inBackground`.
  const sets = [new Set<() => void>(), new Set<() => void>()] as const;
  let inBackground = appState.currentState === 'background';
  let subscription: { remove(): void } | undefined;
  /** Whether `state` is the background (`inactive` keeps what was), kept as the state now. */
  const rule = (state: string | null | undefined) => (inBackground = state === 'background' || (state !== 'active' && inBackground));
  /**
   * How far the wall clock was ahead of `clock` as the app went to the background (or as the platform was made: an app
   * the OS launched in the background, a push or a background fetch, sleeps there before its first return); the sleep
   * added to `clock` so far.
   */
  let ahead = Date.now() - clock();
  let slept = 0;
  const subscribe = (background: boolean) => (listener: () => void) => {
    const set = sets[+background]!;
    subscription ??= appState.addEventListener('change', (state) => {
      const was = inBackground;
      const next = rule(state);
      if (next === was) return;
      // performance.now() is steady_clock (react-native ReactCommon/react/timing/primitives.h), which on Android stops
      // while the phone sleeps: the wall clock's lead grown over a background is that sleep, added before the
      // tracker reads the clock, so a night asleep outlasts the background time-out. assumed: a clock set forward in
      // the background lengthens that background (never play); one set back there adds none.
      const lead = Date.now() - clock();
      if (next) ahead = lead;
      else if (lead - ahead > 0) slept += lead - ahead;
      for (const fn of [...sets[+next]!]) fn();
    });
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!sets[0].size && !sets[1].size) {
        subscription?.remove();
        subscription = undefined;
      }
    };
  };
  // Read now (a change while nobody listened is caught up), by the rule the listener applies.
  return { onBackground: subscribe(true), onForeground: subscribe(false), isInBackground: () => rule(appState.currentState), m: () => clock() + slept };
}

/**
 * NetInfo 9+: `addEventListener` returns the unsubscribe function and calls the listener with the current
 * state at once; it is removed when our last listener leaves. Online unless `isConnected` is `false` (`null` is
 * unknown). `isInternetReachable` is not read: on iOS it is NetInfo's own request to a Google URL by default, which
 * networks that block Google (mainland China, some firewalls) never answer, so it stays `false` while the relay
 * answers; the relay's own answer is the test (a failed request keeps the sessions queued).
 */
function netInfoNetwork(netInfo: NetInfoLike): NetworkStatus {
  return watchedNetwork((update) => netInfo.addEventListener((state) => update(state.isConnected !== false)));
}
