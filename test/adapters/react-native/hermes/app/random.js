/**
 * The app's react-native-get-random-values, imported first as the guide says, one version per run
 * (`__STORY__.random`): 2.0.0 (React Native 0.81+), or 1.11.0 or 1.8.0 (React Native 0.70 to 0.80; 1.8 what
 * Expo SDK 47 installs). Each installs `crypto.getRandomValues` only where none is, so a bundle that loaded them
 * all would run the first; Metro runs a `require` when it is called, so only the picked one loads.
 * 2.0.0 finds its native module with `TurboModuleRegistry.getEnforcing('RNGetRandomValues')`; 1.x reads
 * `NativeModules.RNGetRandomValues` and throws `Native module not found` without it (their index.js).
 */
const { random = 'v2' } = globalThis.__STORY__ || {};
if (random === 'none') {
  // An Expo app passing expo-crypto instead (the guide: `modules.expoCrypto`), no polyfill imported.
} else if (random === 'v1.8') require('get-random-values-v1-8');
else if (random === 'v1.11') require('get-random-values-v1-11');
else require('react-native-get-random-values');
