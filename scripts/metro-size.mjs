// What the SDK costs a React Native app, as Metro bundles it (DESIGN section 11; `npm run size` prints it).
// Metro does not tree-shake and puts every `import()` chunk into the one bundle, so everything
// `game-campaign-sdk/react-native` reaches is paid for, used or not. Measured as a difference: the same small
// app (AsyncStorage, NetInfo, react-native-get-random-values, React, a web view component) bundled by Metro
// (scripts/metro-app.mjs: release, minified, @react-native/babel-preset as a new app has it) with the SDK's
// tracker, Client API reads and web view host, minus that app without them. Figures: minified JavaScript bytes,
// gzip level 9 of the whole bundle, and Hermes bytecode (`hermesc -emit-binary -O`, npm hermes-compiler: what a
// release build ships). All three are deterministic: Metro numbers modules in resolution order.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createAppFolder, metroBundle } from './metro-app.mjs';
import { KB, START_UP_CODE } from './size-budgets.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const HERMESC = join(ROOT, 'node_modules/hermes-compiler/hermesc/linux64-bin/hermesc');

/**
 * DESIGN section 11: the tracker, the reads and the web view host in a React Native app, 12 KB gzip (`target`), plus
 * the start-up code every row with the tracker carries ({@link START_UP_CODE}, "about 2.7 KB, no more"): in a Metro
 * app the tracker's start-up code is always there, as in every other tracker row. The creator picker is an entry of
 * its own (`game-campaign-sdk/react-native/picker`), outside this row (docs/decisions.md, "React Native entry:
 * measured as Metro bundles it").
 */
export const METRO_ROW = { label: 'React Native app on Metro (tracker, reads, web view host)', budget: 12 * KB + START_UP_CODE, target: 12 * KB };

/** The app's own modules, in both builds. `react-native` is a stand-in (the real one needs the native runtime). */
const BASE = {
  'react-native.js': `export const AppState = { currentState: 'active', addEventListener: () => ({ remove() {} }) };
export const Linking = { openURL: async () => {} };
export const TurboModuleRegistry = { get: () => null, getEnforcing: () => ({ getRandomBase64: () => '' }) };
export const NativeModules = { RNCNetInfo: { getCurrentState: async () => ({}), configure() {}, addListener() {}, removeListeners() {} } };
export const NativeEventEmitter = class { addListener() { return { remove() {} }; } };
export const Platform = { OS: 'android', select: (choices) => choices.android ?? choices.default };
`,
  'web-view.js': `export const WebView = () => null;\n`,
};

const IMPORTS = `import 'react-native-get-random-values';
import * as React from 'react';
import * as AsyncStorage from '@react-native-async-storage/async-storage';
import NetInfo from '@react-native-community/netinfo';
import { AppState, Linking } from 'react-native';
import { WebView } from './web-view.js';
`;

const WITHOUT_SDK = `${IMPORTS}globalThis.game = { React, AsyncStorage, NetInfo, AppState, Linking, WebView };\n`;

/** The app using the SDK; `picker` adds a boost screen with the creator picker, an import of its own. */
const sdkApp = (picker = false) => `${IMPORTS}import { createGameCampaign, createWebViewHost } from 'game-campaign-sdk/react-native';
${picker ? "import { creatorPicker } from 'game-campaign-sdk/react-native/picker';\n" : ''}const webView = createWebViewHost({ React, WebView });
const gc = createGameCampaign({ clientKey: 'ck_live_key:secret', relay: { url: 'https://game.example/campaign' }, userId: 'player-1', modules: { AsyncStorage, AppState, NetInfo, Linking, WebView: webView }${picker ? ', picker: creatorPicker' : ''} });
gc.tracker.start({ campaignId: 'spring-event' });
gc.campaigns.get('spring-event').then((campaign) => console.log(campaign.name));
globalThis.game = { React, AsyncStorage, NetInfo, AppState, Linking, WebView, gc, openCampaign: () => gc.webview.open({ campaignId: 'spring-event' }), Host: webView.Host${picker ? ", boostScreen: () => gc.picker({ campaignId: 'spring-event' })" : ''} };
`;
const WITH_SDK = sdkApp();
/** The same app showing a boost screen: `game-campaign-sdk/react-native/picker` passed as `picker`. */
const WITH_PICKER = sdkApp(true);

/** Bytes of `code` as Hermes bytecode. */
function hermesBytes(code) {
  const dir = mkdtempSync(join(tmpdir(), 'gc-metro-size-'));
  try {
    writeFileSync(join(dir, 'bundle.js'), code);
    execFileSync(HERMESC, ['-emit-binary', '-O', '-out', join(dir, 'bundle.hbc'), join(dir, 'bundle.js')], { stdio: 'pipe' });
    return readFileSync(join(dir, 'bundle.hbc')).byteLength;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One build of the app: its minified, gzip and bytecode bytes, and its code. */
async function appSizes(entry) {
  const app = createAppFolder({ ...BASE, 'index.js': entry });
  try {
    const code = await metroBundle({ dir: app.dir, entry: 'index.js', standIns: { 'react-native': join(app.dir, 'react-native.js') } });
    return { js: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length, hermes: hermesBytes(code), code };
  } finally {
    app.remove();
  }
}

/**
 * The SDK's cost in the Metro release bundle: `{ js, gzip, hermes }` of the app with the SDK minus without it;
 * `bytes` (the budgeted figure) is the gzip one. `code` holds both bundles, for tests that look inside.
 */
export async function measureMetroSize() {
  const without = await appSizes(WITHOUT_SDK);
  const withSdk = await appSizes(WITH_SDK);
  const withPicker = await appSizes(WITH_PICKER);
  return {
    label: METRO_ROW.label,
    bytes: withSdk.gzip - without.gzip,
    budget: METRO_ROW.budget,
    target: METRO_ROW.target,
    js: withSdk.js - without.js,
    gzip: withSdk.gzip - without.gzip,
    hermes: withSdk.hermes - without.hermes,
    // Not budgeted (DESIGN section 11 budgets the tracker, the reads and the web view host): what the picker adds.
    picker: { js: withPicker.js - withSdk.js, gzip: withPicker.gzip - withSdk.gzip, hermes: withPicker.hermes - withSdk.hermes },
    code: { withSdk: withSdk.code, without: without.code, withPicker: withPicker.code },
  };
}
