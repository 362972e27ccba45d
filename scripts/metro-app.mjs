// A small React Native app bundled by Metro as a release build would bundle it (the React Native story suite
// test/adapters/react-native/hermes and the Metro row of `npm run size` use it).
// - The app lives in a temp folder whose node_modules/game-campaign-sdk links to this repository: the SDK is
//   resolved as an app resolves it, through package.json (the export map, or with package exports off, the
//   classic `react-native/package.json` sub-folder), from the built dist/.
// - Metro 0.87.1 (`Metro.runBuild`, config from `metro-config`), Babel through `@react-native/babel-preset`
//   0.88.1 (`babel.config.js`, as `npx @react-native-community/cli init` writes it), `dev: false`,
//   `minify: true`, platform `android`: what `react-native bundle --dev false` does. The resolver settings are
//   those @react-native/metro-config (RN 0.79+) sets: main fields `react-native`, `browser`, `main`; the
//   `react-native` condition; the `android`/`ios` platforms; inline requires on.
// - `toolchain: 'rn-0.70'` is React Native 0.70's own instead (the guide's minimum): Metro 0.72.3 (npm alias
//   `metro-v0-72`, with its own metro-config and resolver) and `metro-react-native-babel-preset` 0.72.3, named in
//   babel.config.js as that version's template writes it (`presets: ['module:metro-react-native-babel-preset']`).
//   The settings are those of its CLI (@react-native-community/cli-plugin-metro 9, `getDefaultConfig`: main fields
//   `react-native`, `browser`, `main`; platforms `android`, `ios`, `native`) and of the template's metro.config.js
//   (inline requires on), with the transformer that CLI names, `metro-react-native-babel-transformer` 0.72.3 (it
//   reads the app's babel.config.js; Metro's own transformer would read the working directory's). That Metro has
//   no package exports at all: the SDK resolves through the classic `react-native/package.json` sub-folder.
// - `react-native` itself resolves to a stand-in module (`standIns`), never the real package: the real one needs
//   the native runtime. Every other package (AsyncStorage, NetInfo, react) is the real one from node_modules.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

/**
 * Creates the app folder: `files` (name -> source) plus package.json, babel.config.js and
 * node_modules/game-campaign-sdk -> this repository. Returns its path and a `remove()`. `presetOptions` go to
 * @react-native/babel-preset: `{ unstable_transformProfile: 'default' }` is its profile for engines other than
 * Hermes V1 (classes and block scoping lowered, as React Native 0.70's preset did for Hermes 0.12); without it
 * the preset assumes today's Hermes (`hermes-stable`: classes kept); React Native 0.70's preset (`toolchain:
 * 'rn-0.70'`) has no profiles and lowers them always. `packageFiles` (names at the repository's
 * root, e.g. `['package.json', 'dist']`) makes the linked package those entries only.
 */
export function createAppFolder(files, { presetOptions = {}, packageFiles, toolchain = 'today' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gc-metro-app-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'story-app', version: '1.0.0', private: true }));
  const presetName = toolchain === 'rn-0.70' ? 'metro-react-native-babel-preset' : '@react-native/babel-preset';
  const preset = JSON.stringify([require.resolve(presetName), presetOptions]);
  writeFileSync(join(dir, 'babel.config.js'), `module.exports = { presets: [${preset}] };\n`);
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  mkdirSync(join(dir, 'node_modules'));
  if (packageFiles) {
    // The package as only these entries of the repository (each linked), for tests of what one of them does.
    const root = join(dir, 'package-root');
    mkdirSync(root);
    for (const name of packageFiles) symlinkSync(join(ROOT, name), join(root, name));
    symlinkSync(root, join(dir, 'node_modules', 'game-campaign-sdk'), 'dir');
  } else {
    symlinkSync(ROOT, join(dir, 'node_modules', 'game-campaign-sdk'), 'dir');
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Bundles `entry` (a file of the app folder) with Metro, release and minified. `standIns` maps a module name
 * (`react-native`) to the file Metro resolves instead; `packageExports: false` is Metro before 0.82 (React
 * Native 0.78 and older), where `resolver.unstable_enablePackageExports` was off by default. `toolchain:
 * 'rn-0.70'` bundles with React Native 0.70's Metro (0.72.3, which has no package exports) and settings.
 * @returns the bundle's code
 */
export async function metroBundle({ dir, entry, standIns = {}, packageExports = true, toolchain = 'today' }) {
  if (toolchain === 'rn-0.70') {
    // React Native 0.70's Metro 0.72.3: no package exports; its own Babel transformer, as that version's CLI sets it
    // (Metro 0.72's default one reads the Babel config of the working folder, not the app's).
    const requireOld = createRequire(require.resolve('metro-v0-72/package.json'));
    return build(requireOld, { dir, entry, standIns }, { platforms: ['android', 'ios', 'native'], useWatchman: false }, { babelTransformerPath: require.resolve('metro-react-native-babel-transformer') });
  }
  const resolver = { platforms: ['android', 'ios'], unstable_conditionNames: ['react-native'], unstable_enablePackageExports: packageExports };
  return build(require, { dir, entry, standIns }, resolver, {});
}

/** A release, minified Android build of `entry` with the Metro `load` requires, `resolver` and `transformer` added to the story app's settings. */
async function build(load, { dir, entry, standIns }, resolver, transformer) {
  const Metro = load('metro');
  const { mergeConfig, getDefaultConfig } = load('metro-config');
  const defaults = await getDefaultConfig(dir);
  const config = mergeConfig(defaults, {
    projectRoot: dir,
    watchFolders: [dir, ROOT],
    cacheStores: [],
    fileMapCacheDirectory: dir, // in the app's folder, removed with it: by default each new folder left ~800 KB in the system temp folder
    reporter: { update() {} },
    resolver: {
      nodeModulesPaths: [join(ROOT, 'node_modules')],
      resolverMainFields: ['react-native', 'browser', 'main'],
      ...resolver,
      resolveRequest: (context, moduleName, platform) =>
        moduleName in standIns ? { type: 'sourceFile', filePath: standIns[moduleName] } : context.resolveRequest(context, moduleName, platform),
    },
    transformer: {
      ...transformer,
      getTransformOptions: async () => ({ transform: { experimentalImportSupport: false, inlineRequires: true } }),
    },
  });
  const result = await Metro.runBuild(config, { entry: join(dir, entry), dev: false, minify: true, platform: 'android' });
  return result.code;
}
