/**
 * The shapes of the React Native modules a game passes in. Structural: the package imports neither
 * `react-native` nor any community module, so they stay optional peer dependencies.
 */
import type { FetchLike } from '../../core/platform.js';

/**
 * A secure random fill as the SDK calls it: always with one `Uint8Array` of at most 65 536 bytes; the return
 * value is ignored. Wider than `crypto.getRandomValues`' type on purpose, so expo-crypto's
 * `getRandomValues<T extends IntBasedTypedArray | UintBasedTypedArray>(typedArray: T): T` and a bound
 * `crypto.getRandomValues` both fit as they are, without a cast.
 */
export type RandomValuesFill = (array: Uint8Array) => unknown;

/** The calls both AsyncStorage 2.x and 3.x have (3.x dropped `multiGet` & co. for `getMany` & co.). */
export interface AsyncStorageLike {
  getItem(key: string): Promise<string | null | undefined>;
  setItem(key: string, value: string): Promise<unknown>;
  removeItem(key: string): Promise<unknown>;
  getAllKeys(): Promise<readonly string[]>;
  /** 2.x */
  multiGet?(keys: readonly string[]): Promise<ReadonlyArray<readonly [string, string | null]>>;
  /** 3.x */
  getMany?(keys: readonly string[]): Promise<Record<string, string | null>>;
}

/**
 * What `modules.AsyncStorage` may be: the module (`import * as AsyncStorage`; with 3.x the SDK then uses a store
 * of its own, `createAsyncStorage(name)`), or a store (2.x's default export, or a 3.x store the game created).
 */
export type AsyncStorageModule = AsyncStorageLike | { createAsyncStorage(name: string): AsyncStorageLike; default?: unknown } | { default: AsyncStorageLike };

/** `AppState` from `react-native`. */
export interface AppStateLike {
  /** `| undefined` for `exactOptionalPropertyTypes`: react-native declares `currentState: null | undefined | string`. */
  readonly currentState?: string | null | undefined;
  addEventListener(type: 'change', listener: (state: string) => void): { remove(): void };
}

/** `@react-native-community/netinfo` (9+: `addEventListener` returns the unsubscribe function). */
export interface NetInfoLike {
  addEventListener(listener: (state: { isConnected: boolean | null; isInternetReachable?: boolean | null }) => void): () => void;
}

/**
 * `expo-crypto` (`import * as ExpoCrypto from 'expo-crypto'`): its `getRandomValues`, and `digest` (SHA-256
 * natively instead of @noble/hashes) when present.
 */
export interface ExpoCryptoLike {
  getRandomValues: RandomValuesFill;
  /**
   * `digest(CryptoDigestAlgorithm.SHA256, data)`; `CryptoDigestAlgorithm.SHA256` is `'SHA-256'`. `data` is a
   * `BufferSource` for TypeScript 5.7+'s lib, written without a typed array's type argument, which older versions refuse.
   */
  digest?(algorithm: string, data: Uint8Array & { readonly buffer: ArrayBuffer }): Promise<ArrayBuffer>;
}

/** `Linking` from `react-native`: `openURL` rejects when no app can open the URL. */
export interface LinkingLike {
  openURL(url: string): Promise<unknown>;
}

/** Something that shows a web view: {@link createWebViewHost}'s host, or your own. */
export interface WebViewOpener {
  open(url: string): Promise<import('../../core/platform.js').WebViewHandle>;
  /**
   * The error `open` would throw now (none when it can show a page), asked before the relay makes a token: `gc.webview.open`
   * then rejects with it, no token spent, offline too. {@link createWebViewHost}'s: while no `Host` is rendered.
   */
  unavailable?(): Error | undefined;
}

/** The modules a React Native game passes in. */
export interface ReactNativeModules {
  /**
   * `@react-native-async-storage/async-storage` (1.17+, 2.x or 3.x) as `import * as AsyncStorage`: with 3.x the SDK
   * keeps its data in its own store, not in the app's legacy shared store (the 3.x default export). A store
   * (2.x's default export) works too.
   */
  AsyncStorage: AsyncStorageModule;
  /** `AppState` from `react-native`. */
  AppState: AppStateLike;
  /** `@react-native-community/netinfo`'s default export: flushes when the network returns. */
  NetInfo?: NetInfoLike;
  /** `crypto.getRandomValues` as `react-native-get-random-values` installs it (bound). */
  getRandomValues?: RandomValuesFill;
  /** `expo-crypto`, for its `getRandomValues`. */
  expoCrypto?: ExpoCryptoLike;
  /** Shows the campaign page in the app: {@link createWebViewHost} over `react-native-webview`. */
  WebView?: WebViewOpener;
  /** `Linking` from `react-native`: opens the page in the browser when no `WebView` is given. */
  Linking?: LinkingLike;
}

/** Options of {@link createReactNativePlatform}. */
export interface ReactNativePlatformOptions {
  modules: ReactNativeModules;
  /** The fetch to use. @defaultValue the global `fetch` */
  fetch?: FetchLike;
  /** Name of the AsyncStorage 3.x store created with `createAsyncStorage`. @defaultValue `'game-campaign'` */
  storageName?: string;
  /**
   * The tracker's `storageKey`: with the 3.x module, keys under `${storageKey}:` that SDK 0.1.0 left in the
   * legacy shared store are moved into the SDK's own store before first use. `createGameCampaign` passes it.
   * @defaultValue `'game-campaign'`
   */
  storageKey?: string;
}
