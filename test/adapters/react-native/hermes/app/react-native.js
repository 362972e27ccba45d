/**
 * A stand-in for the `react-native` package, which Metro resolves instead of the real one (scripts/metro-app.mjs,
 * `standIns`): the real package needs React Native's native runtime, which the `hermes` CLI has not. It has what
 * the app and the real AsyncStorage, NetInfo and react-native-get-random-values JavaScript import, shaped as in
 * react-native (Libraries/TurboModule/TurboModuleRegistry.js: `get` returns null for an unknown module,
 * `getEnforcing` throws; Libraries/EventEmitter/NativeEventEmitter.js: `addListener` returns `{ remove() }`;
 * Libraries/AppState/AppState.js: `currentState`, `addEventListener('change')` returning `{ remove() }`;
 * Libraries/Linking/Linking.js: `openURL` rejects when nothing opens the URL), over the device of device.js.
 */
import { appState, nativeEvents, nativeModules, openedUrls } from './device.js';

export const Platform = { OS: 'android', Version: 33, select: (choices) => ('android' in choices ? choices.android : choices.default) };

/**
 * The legacy (bridge) modules: NetInfo's `RNCNetInfo` (9.3.5, 11.4.1 and 12 read `NativeModules.RNCNetInfo`,
 * src/internal/nativeModule.ts), AsyncStorage 1.x/2.x's `RNCAsyncStorage`, which 1.17.3 reads from here first
 * (src/RCTAsyncStorage.ts) and 1.23.1 and 2.x through the registry, whose `get` falls back to these in React Native,
 * and react-native-get-random-values 1.x's `RNGetRandomValues` (1.8.0 and 1.11.0 read `NativeModules.RNGetRandomValues`,
 * index.js; absent when the app was not rebuilt with it).
 */
export const NativeModules = { RNCNetInfo: nativeModules.RNCNetInfo, RNCAsyncStorage: nativeModules.RNCAsyncStorage };
if (nativeModules.RNGetRandomValues) NativeModules.RNGetRandomValues = nativeModules.RNGetRandomValues;

export const TurboModuleRegistry = {
  get: (name) => (name === 'RNCNetInfo' ? null : nativeModules[name] || null),
  getEnforcing(name) {
    const module = TurboModuleRegistry.get(name);
    if (!module) throw new Error(`TurboModuleRegistry.getEnforcing(...): '${name}' could not be found`);
    return module;
  },
};

export class NativeEventEmitter {
  addListener(event, listener) {
    const listeners = nativeEvents[event] || (nativeEvents[event] = new Set());
    listeners.add(listener);
    return { remove: () => void listeners.delete(listener) };
  }
}

export const AppState = {
  get currentState() {
    return appState.currentState;
  },
  addEventListener(type, listener) {
    if (type !== 'change') throw new Error(`AppState: no '${type}' event in this stand-in`);
    appState.listeners.add(listener);
    return { remove: () => void appState.listeners.delete(listener) };
  },
};

export const Linking = {
  openURL: async (url) => void openedUrls.push(url),
};
