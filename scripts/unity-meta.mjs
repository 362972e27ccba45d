// The Unity package's `.meta` files (adapters/unity). A package installed from a git URL, a tarball or a scoped
// registry lands in Unity's package cache, which is immutable: Unity cannot write a missing `.meta` there and
// ignores the asset ("has no meta file, but it's in an immutable folder"). So every file and folder Unity imports
// ships with its `.meta`, and its GUID is derived from the package-relative path: stable across machines and
// releases, different for every asset.
//
// Unity imports neither hidden entries (a name starting with '.') nor anything whose name ends in '~'
// (Samples~, WebGLTemplates~: Unity manual, "Special folder names" / hidden assets), so those get no `.meta`.
// The importer blocks follow what Unity 2021.3+ writes (compared with the committed metas of
// Playgama/bridge-unity: Runtime.meta, Editor/*.asmdef.meta, Editor/*.cs.meta, README.md.meta and
// Runtime/Plugins/PlaygamaBridge.jslib.meta at 7d2eb62); a package's package.json gets PackageManifestImporter,
// its .md files TextScriptImporter, as Unity writes them for packages it imports.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const UNITY_PACKAGE = 'adapters/unity';

/** Names Unity skips when importing (and so never needs a `.meta` for). */
export function ignoredByUnity(name) {
  return name.startsWith('.') || name.endsWith('~') || name.endsWith('.meta') || name === 'cvs' || name.endsWith('.tmp');
}

/** Every file and folder of the package Unity imports, as `/`-separated package-relative paths (folders end in `/`). */
export function unityAssets(packageDir) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (ignoredByUnity(entry.name)) continue;
      const path = relative(packageDir, join(dir, entry.name)).split(sep).join('/');
      if (entry.isDirectory()) {
        found.push(`${path}/`);
        walk(join(dir, entry.name));
      } else found.push(path);
    }
  };
  walk(packageDir);
  return found;
}

/** The 32 hex digits Unity uses as a GUID: the first half of SHA-256 over the package name and the asset's path. */
export function guidOf(packageName, assetPath) {
  return bytesToHex(sha256(utf8ToBytes(`${packageName}/${assetPath.replace(/\/$/, '')}`))).slice(0, 32);
}

const COMMON = ['  externalObjects: {}', '  userData:', '  assetBundleName:', '  assetBundleVariant:'];

/** A plugin only the WebGL player links: off for Any and the Editor, on for WebGL. */
const WEBGL_PLUGIN = [
  'PluginImporter:',
  '  externalObjects: {}',
  '  serializedVersion: 2',
  '  iconMap: {}',
  '  executionOrder: {}',
  '  defineConstraints: []',
  '  isPreloaded: 0',
  '  isOverridable: 0',
  '  isExplicitlyReferenced: 0',
  '  validateReferences: 1',
  '  platformData:',
  '  - first:',
  '      Any:',
  '    second:',
  '      enabled: 0',
  '      settings: {}',
  '  - first:',
  '      Editor: Editor',
  '    second:',
  '      enabled: 0',
  '      settings:',
  '        DefaultValueInitialized: true',
  '  - first:',
  '      WebGL: WebGL',
  '    second:',
  '      enabled: 1',
  '      settings: {}',
  ...COMMON.slice(1),
];

/** The importer block of one asset: by folder or extension. */
export function importerOf(assetPath) {
  if (assetPath.endsWith('/')) return ['folderAsset: yes', 'DefaultImporter:', ...COMMON];
  if (assetPath.endsWith('.jslib') || assetPath.endsWith('.jspre')) return WEBGL_PLUGIN;
  if (assetPath.endsWith('.cs')) {
    return ['MonoImporter:', '  externalObjects: {}', '  serializedVersion: 2', '  defaultReferences: []', '  executionOrder: 0', '  icon: {instanceID: 0}', ...COMMON.slice(1)];
  }
  if (assetPath.endsWith('.asmdef')) return ['AssemblyDefinitionImporter:', ...COMMON];
  // The package's manifest is a PackageManifest asset (what Unity writes for it, not a text asset).
  if (assetPath === 'package.json') return ['PackageManifestImporter:', ...COMMON];
  if (/\.(json|md|txt|xml)$/.test(assetPath)) return ['TextScriptImporter:', ...COMMON];
  return ['DefaultImporter:', ...COMMON];
}

/** The `.meta` text of one asset. */
export function renderMeta(packageName, assetPath) {
  return ['fileFormatVersion: 2', `guid: ${guidOf(packageName, assetPath)}`, ...importerOf(assetPath), ''].join('\n');
}

/** The `.meta` file of an asset path (`Runtime/` -> `Runtime.meta`). */
export function metaPathOf(assetPath) {
  return `${assetPath.replace(/\/$/, '')}.meta`;
}

/** Every `.meta` the package should hold: its package-relative path -> its text. */
export function renderMetas(packageDir) {
  const { name } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  return new Map(unityAssets(packageDir).map((asset) => [metaPathOf(asset), renderMeta(name, asset)]));
}

/** The `.meta` files present in the package (outside what Unity ignores), package-relative. */
export function presentMetas(packageDir) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name.endsWith('~')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.meta')) found.push(relative(packageDir, full).split(sep).join('/'));
    }
  };
  walk(packageDir);
  return found.sort();
}

/**
 * What is wrong with the `.meta` files in `packageDir`: assets without one, `.meta` files whose asset is gone, GUIDs
 * used twice, and `.meta` files that differ from what {@link renderMetas} makes. Empty when all is well.
 */
export function metaProblems(packageDir) {
  const expected = renderMetas(packageDir);
  const present = presentMetas(packageDir);
  const problems = [];
  for (const path of expected.keys()) if (!present.includes(path)) problems.push(`missing: ${path}`);
  const owners = new Map();
  for (const path of present) {
    if (!expected.has(path)) problems.push(`orphaned: ${path}`);
    const text = readFileSync(join(packageDir, path), 'utf8');
    const guid = /^guid: ([0-9a-f]{32})$/m.exec(text)?.[1];
    if (!guid) problems.push(`no guid: ${path}`);
    else if (owners.has(guid)) problems.push(`guid ${guid} of both ${owners.get(guid)} and ${path}`);
    else owners.set(guid, path);
    if (expected.has(path) && expected.get(path) !== text) problems.push(`differs from the generator: ${path}`);
  }
  return problems;
}
