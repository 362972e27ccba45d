/**
 * The shapes of the React Native modules a game passes in. Structural: the package imports neither
 * `react-native` nor any community module, so they stay optional peer dependencies.
 */
import type { FetchLike } from '../../core/platform.js';
import type { GetRandomValues } from '../shared/crypto.js';

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

/** The default instance, or the 3.x module (`createAsyncStorage(name)` is then used for a store of our own). */
export type AsyncStorageModule = AsyncStorageLike | { createAsyncStorage(name: string): AsyncStorageLike };

/** `AppState` from `react-native`. */
export interface AppStateLike {
  readonly currentState?: string | null;
  addEventListener(type: 'change', listener: (state: string) => void): { remove(): void };
}

/** `@react-native-community/netinfo` (12: `addEventListener` returns the unsubscribe function). */
export interface NetInfoLike {
  addEventListener(listener: (state: { isConnected: boolean | null; isInternetReachable?: boolean | null }) => void): () => void;
}

/** `expo-crypto`: its `getRandomValues`, and `digest` (SHA-256 natively instead of the SDK's own fallback) when present. */
export interface ExpoCryptoLike {
  getRandomValues: GetRandomValues;
  /** `digest(CryptoDigestAlgorithm.SHA256, data)`; `CryptoDigestAlgorithm.SHA256` is `'SHA-256'`. */
  digest?(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
}

/** `Linking` from `react-native`: `openURL` rejects when no app can open the URL. */
export interface LinkingLike {
  openURL(url: string): Promise<unknown>;
}

/** Something that shows a web view: {@link createWebViewHost}'s host, or your own. */
export interface WebViewOpener {
  open(url: string): Promise<import('../../core/platform.js').WebViewHandle>;
}

/** The modules a React Native game passes in. */
export interface ReactNativeModules {
  /** `@react-native-async-storage/async-storage` (2.x or 3.x): its default export, or the module. */
  AsyncStorage: AsyncStorageModule;
  /** `AppState` from `react-native`. */
  AppState: AppStateLike;
  /** `@react-native-community/netinfo`'s default export: flushes when the network returns. */
  NetInfo?: NetInfoLike;
  /** `crypto.getRandomValues` as `react-native-get-random-values` installs it (bound). */
  getRandomValues?: GetRandomValues;
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
}
