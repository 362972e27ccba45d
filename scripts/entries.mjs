/**
 * The package's entry points (DESIGN section 3), the one list the build, the API report and the size
 * report read. An entry is listed once it holds real code. `selfContained`: built as one file of its own (its
 * `import()`s inlined), sharing no module with the other entries: Metro does not tree-shake, wraps every file as a
 * module of its own and puts every `import()` in the app anyway (docs/decisions.md, "React Native entry: measured
 * as Metro bundles it").
 */
export const ENTRIES = [
  { name: 'index', source: 'core/index.ts', subpath: '.', client: true },
  { name: 'server', source: 'core/server/index.ts', subpath: './server' },
  { name: 'node', source: 'adapters/node/index.ts', subpath: './node' },
  { name: 'emulator', source: 'emulator/index.ts', subpath: './emulator' },
  { name: 'testing', source: 'core/testing.ts', subpath: './testing' },
  { name: 'browser', source: 'adapters/browser/index.ts', subpath: './browser', client: true },
  { name: 'cocos', source: 'adapters/cocos/index.ts', subpath: './cocos', client: true },
  { name: 'react-native', source: 'adapters/react-native/index.ts', subpath: './react-native', client: true, selfContained: true },
  { name: 'react-native-picker', source: 'adapters/react-native/picker.ts', subpath: './react-native/picker', client: true, selfContained: true },
];

/** Built for the `bin`, not an import path. */
export const BINS = [{ name: 'emulator-cli', source: 'emulator/cli.ts' }];

/** The `<script>` bundle: global `GameCampaign`, built from the browser entry; `types` is its hand-checked declaration, copied next to it. */
export const IIFE = { source: 'adapters/browser/index.ts', file: 'dist/game-campaign.iife.js', name: 'GameCampaign', types: 'types/game-campaign.iife.d.ts' };

/** Runtime dependencies stay external in the ESM/CJS builds (the game's bundler resolves them). */
export function isExternal(id) {
  return /^(node:|zod|hono|@hono\/|idb-keyval|eventemitter3|mitt|@noble\/|rate-limiter-flexible|ioredis)/.test(id) || ['http', 'https', 'net', 'crypto', 'util', 'events', 'stream', 'url', 'buffer', 'os', 'fs', 'path', 'child_process', 'zlib'].includes(id);
}

/**
 * The IIFE's siblings: files of their own next to it, for modules the ESM build imports lazily (`import()`): only
 * code a game may never use (DESIGN section 11; what every tracker start needs is in the IIFE itself). The
 * IIFE cannot split code, so its build points each lazy import of a `modules` entry at `loader`, which injects
 * `<script src="file">` (setting the global `name`) on first use. The sibling is built from `source`, which exports
 * what the loader hands over. See adapters/browser/sibling-script.ts.
 */
export const IIFE_SIBLINGS = {
  /** @noble/hashes' SHA-256, only on pages without `crypto.subtle`. */
  sha256: { source: 'adapters/shared/sha256.ts', modules: ['adapters/shared/sha256.ts'], file: 'dist/game-campaign.sha256.js', name: 'GameCampaignSha256', loader: 'adapters/browser/sha256-script.ts' },
  /** The web view's overlay and window code, and the code of opening one (PKCE, token, address), when a web view first opens. */
  webview: {
    source: 'adapters/browser/webview-sibling.ts',
    modules: ['adapters/browser/webview.ts', 'core/webview/open-page.ts'],
    file: 'dist/game-campaign.webview.js',
    name: 'GameCampaignWebView',
    loader: 'adapters/browser/webview-script.ts',
  },
  /** The creator picker's behaviour, when the first picker is created. */
  picker: { source: 'core/picker/picker-core.ts', modules: ['core/picker/picker-import.ts'], file: 'dist/game-campaign.picker.js', name: 'GameCampaignPicker', loader: 'adapters/browser/picker-script.ts' },
  /** The cross-tab lease (./lease-lock.ts), only in browsers without Web Locks, when the first lock is taken. */
  leaseLock: { source: 'adapters/browser/lease-lock.ts', modules: ['adapters/browser/lease-lock-import.ts'], file: 'dist/game-campaign.lease-lock.js', name: 'GameCampaignLeaseLock', loader: 'adapters/browser/lease-lock-script.ts' },
};
