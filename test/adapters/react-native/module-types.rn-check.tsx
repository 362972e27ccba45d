/**
 * Type test (tsconfig.react-native.json, in `npm run typecheck`): the real modules' types fit the adapter's
 * options as they are, without a cast, and the web view host is a component React 19's types accept.
 */
import * as AsyncStorage from '@react-native-async-storage/async-storage';
import AsyncStorageV2 from 'async-storage-v2';
import * as AsyncStorageV2Module from 'async-storage-v2';
import AsyncStorageV117 from 'async-storage-v1-17';
import * as AsyncStorageV117Module from 'async-storage-v1-17';
import AsyncStorageV123 from 'async-storage-v1-23';
import * as AsyncStorageV123Module from 'async-storage-v1-23';
import NetInfo from '@react-native-community/netinfo';
import NetInfoV9 from 'netinfo-v9';
import NetInfoV11 from 'netinfo-v11';
import * as ExpoCrypto from 'expo-crypto';
import React from 'react';
import { AppState, Linking } from 'react-native';
import { WebView } from 'react-native-webview';
import { WebView as WebViewV13 } from 'webview-v13';
import { createWebViewHost, type ReactNativeModules } from '../../../adapters/react-native/index.js';

/** expo-crypto's `getRandomValues<T extends IntBasedTypedArray | UintBasedTypedArray>`, as the module and alone. */
export const expo: ReactNativeModules = { AsyncStorage, AppState, NetInfo, expoCrypto: ExpoCrypto };
export const expoFill: ReactNativeModules = { AsyncStorage, AppState, getRandomValues: ExpoCrypto.getRandomValues };

/** async-storage 3.x as the module or one of its stores; 2.x as its default export or its module. */
export const v3Store: ReactNativeModules = { AsyncStorage: AsyncStorage.createAsyncStorage('game-campaign'), AppState };
export const v2: ReactNativeModules = { AsyncStorage: AsyncStorageV2, AppState, Linking };
export const v2Module: ReactNativeModules = { AsyncStorage: AsyncStorageV2Module, AppState };

/** What Expo SDK 47 and 52 install: async-storage 1.17.3 and 1.23.1 (default export or module), NetInfo 9.3.5 and 11.4.1. */
export const expo47: ReactNativeModules = { AsyncStorage: AsyncStorageV117, AppState, NetInfo: NetInfoV9 };
export const expo47Module: ReactNativeModules = { AsyncStorage: AsyncStorageV117Module, AppState, NetInfo: NetInfoV9 };
export const expo52: ReactNativeModules = { AsyncStorage: AsyncStorageV123, AppState, NetInfo: NetInfoV11 };
export const expo52Module: ReactNativeModules = { AsyncStorage: AsyncStorageV123Module, AppState, NetInfo: NetInfoV11 };

/** `Host` is a React function component: JSX and `ComponentType` accept it. */
const webView = createWebViewHost({ React, WebView });
export const component: React.ComponentType<{ style?: { flex: number } }> = webView.Host;
/** react-native-webview 13.x's `WebView` (13.17.0; Expo SDK 49 to 54 install 13.2.2 to 13.15.0) is taken as it is. */
export const webView13 = createWebViewHost({ React, WebView: WebViewV13 });
export const App = (): React.JSX.Element => (
  <>
    <webView.Host />
    <webView.Host style={{ flex: 1 }} />
  </>
);
