/**
 * The Unity package as Unity's Package Manager receives it from a git URL, a tarball or a scoped registry: an
 * immutable folder in the package cache, where an asset without a `.meta` is ignored. And the generated
 * GameCampaign.jspre: current with the built IIFE, and in a syntax Emscripten's pre-js tools accept.
 */
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { parse } from 'acorn';
import { afterAll, describe, expect, it } from 'vitest';
import { IIFE } from '../../../scripts/entries.mjs';
import { JSPRE_TARGET, renderJspre, UNITY_JSPRE } from '../../../scripts/unity-jspre.mjs';
import { ignoredByUnity, metaProblems, unityAssets } from '../../../scripts/unity-meta.mjs';

const ROOT = join(import.meta.dirname, '../../..');
const PACKAGE = join(ROOT, 'adapters/unity');
const work = mkdtempSync(join(tmpdir(), 'unity-package-'));
afterAll(() => {
  chmodAll(work, 0o755, 0o644);
  rmSync(work, { recursive: true, force: true });
});

function chmodAll(dir: string, dirMode: number, fileMode: number): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) chmodAll(path, dirMode, fileMode);
    else chmodSync(path, fileMode);
  }
  chmodSync(dir, dirMode);
}

/** Every path under `dir` (files and folders), for checking that an import wrote nothing. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/**
 * Unity's import of a package in an immutable folder (the package cache): it reads, never writes, so every asset
 * it imports must bring its own `.meta`; one without is skipped with Unity's warning ("has no meta file, but it's
 * in an immutable folder. The asset will be ignored."). Folders whose name ends in `~` and hidden entries are
 * not imported at all.
 */
function importImmutable(packageDir: string): { imported: Map<string, string>; ignored: string[] } {
  const imported = new Map<string, string>();
  const ignored: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (ignoredByUnity(entry.name)) continue;
      const path = join(dir, entry.name);
      const asset = relative(packageDir, path).split(sep).join('/');
      let meta: string;
      try {
        meta = readFileSync(`${path}.meta`, 'utf8');
      } catch {
        ignored.push(asset);
        continue; // a folder without a .meta is ignored with everything in it
      }
      imported.set(asset, /^guid: ([0-9a-f]{32})$/m.exec(meta)?.[1] ?? 'no guid');
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(packageDir);
  return { imported, ignored };
}

/** A read-only copy of the package (as root the mode bits do not stop writes: the import above only reads). */
function immutableCopy(name: string, change?: (dir: string) => void): string {
  const dir = join(work, name);
  cpSync(PACKAGE, dir, { recursive: true });
  change?.(dir);
  chmodAll(dir, 0o555, 0o444);
  return dir;
}

describe('Unity package .meta files', () => {
  it('every file and folder Unity imports has its .meta, none is orphaned, GUIDs are unique and as generated', () => {
    expect(metaProblems(PACKAGE)).toEqual([]);
    const assets = unityAssets(PACKAGE);
    expect(assets).toContain('Runtime/');
    expect(assets).toContain('Runtime/Plugins/WebGL/GameCampaign.jslib');
    expect(assets).toContain('Runtime/Plugins/WebGL/GameCampaign.jspre');
    expect(assets.some((asset) => asset.includes('~'))).toBe(false); // Samples~ and WebGLTemplates~ are not imported
  });

  it('gives each kind of asset its importer: the .jslib and .jspre WebGL-only plugins, the manifest, the documents', () => {
    const meta = (path: string) => readFileSync(join(PACKAGE, `${path}.meta`), 'utf8');
    for (const plugin of ['Runtime/Plugins/WebGL/GameCampaign.jslib', 'Runtime/Plugins/WebGL/GameCampaign.jspre']) {
      expect(meta(plugin)).toMatch(/PluginImporter:[\s\S]*Any:\n {4}second:\n {6}enabled: 0[\s\S]*Editor: Editor\n {4}second:\n {6}enabled: 0[\s\S]*WebGL: WebGL\n {4}second:\n {6}enabled: 1/);
    }
    expect(meta('Runtime/Bridge.cs')).toContain('MonoImporter:');
    expect(meta('Runtime/GameCampaign.Runtime.asmdef')).toContain('AssemblyDefinitionImporter:');
    // What Unity writes for a package's manifest: a PackageManifest asset, not a text asset.
    expect(meta('package.json')).toMatch(/^fileFormatVersion: 2\nguid: [0-9a-f]{32}\nPackageManifestImporter:\n {2}externalObjects: \{\}\n {2}userData:\n {2}assetBundleName:\n {2}assetBundleVariant:\n$/);
    for (const document of ['README.md', 'CHANGELOG.md', 'LICENSE.md', 'Third Party Notices.md']) {
      expect(meta(document)).toMatch(/^fileFormatVersion: 2\nguid: [0-9a-f]{32}\nTextScriptImporter:\n {2}externalObjects: \{\}\n/);
    }
    expect(meta('Runtime')).toMatch(/folderAsset: yes\nDefaultImporter:/);
  });

  it('finds a missing .meta, an orphaned one, a GUID used twice and a hand-edited one (the check can fail)', () => {
    const dir = join(work, 'broken');
    cpSync(PACKAGE, dir, { recursive: true });
    writeFileSync(join(dir, 'Runtime/Added.cs'), 'class Added {}\n');
    rmSync(join(dir, 'Runtime/Tracker.cs'));
    const bridgeMeta = readFileSync(join(dir, 'Runtime/Bridge.cs.meta'), 'utf8');
    writeFileSync(join(dir, 'Runtime/Boost.cs.meta'), bridgeMeta);
    const guid = /^guid: (\w+)$/m.exec(bridgeMeta)![1];
    expect(metaProblems(dir).sort()).toEqual([
      'differs from the generator: Runtime/Boost.cs.meta',
      `guid ${guid} of both Runtime/Boost.cs.meta and Runtime/Bridge.cs.meta`,
      'missing: Runtime/Added.cs.meta',
      'orphaned: Runtime/Tracker.cs.meta',
    ]);
  });

  it('installs into an immutable folder (a git URL, tarball or registry install): every asset is imported, nothing written', () => {
    const dir = immutableCopy('installed');
    const before = tree(dir);
    expect(statSync(join(dir, 'Runtime')).mode & 0o222).toBe(0);
    const { imported, ignored } = importImmutable(dir);
    expect(ignored).toEqual([]);
    expect([...imported.keys()].sort()).toEqual(unityAssets(dir).map((asset) => asset.replace(/\/$/, '')).sort());
    expect(new Set(imported.values()).size).toBe(imported.size);
    expect(tree(dir)).toEqual(before);
    // The folder is all a `?path=adapters/unity` install gets: its own documents are in it, and imported.
    expect([...imported.keys()]).toEqual(expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE.md', 'Third Party Notices.md']));
  });

  it('an asset without its .meta in the immutable folder is ignored (the check can fail)', () => {
    const dir = immutableCopy('without-meta', (copy) => rmSync(join(copy, 'Runtime/Plugins/WebGL/GameCampaign.jspre.meta')));
    expect(importImmutable(dir).ignored).toEqual(['Runtime/Plugins/WebGL/GameCampaign.jspre']);
  });
});

describe('GameCampaign.jspre', () => {
  it(`is current with the built IIFE and its siblings (run \`npm run build\` after a change)`, () => {
    expect(readFileSync(join(ROOT, UNITY_JSPRE), 'utf8')).toBe(renderJspre(ROOT));
  });

  it(`parses as ${JSPRE_TARGET}, which Emscripten's pre-js tools read, although the IIFE itself does not`, () => {
    const source = readFileSync(join(ROOT, UNITY_JSPRE), 'utf8');
    expect(() => parse(source, { ecmaVersion: 2018, sourceType: 'script' })).not.toThrow();
    // The reason for lowering it (and a check that can fail): the ES2020 IIFE is not ES2018.
    expect(() => parse(readFileSync(join(ROOT, IIFE.file), 'utf8'), { ecmaVersion: 2018, sourceType: 'script' })).toThrow();
  });
});
