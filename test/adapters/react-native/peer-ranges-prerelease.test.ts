/**
 * React Native versions npm numbers as prereleases, against the package's `react-native` peer range, with npm itself
 * (`npm install --offline` of local tarballs). react-native-tvos, the Apple TV and Android TV build of React Native that
 * a TV app installs in its place (`"react-native": "npm:react-native-tvos@0.79.5-0"`), numbers every release so
 * (0.79.5-0, 0.81.5-2, 0.85.0-0: its npm versions), and React Native's release candidates are `0.81.0-rc.5`. npm
 * admits a prerelease in a range only where a comparator names a prerelease of the same x.y.z (node-semver's rule),
 * and only `*` without asking (@npmcli/arborist 9.9.1 lib/dep-valid.js: `fetchSpec === '*'` is valid, any other range
 * goes to `semver.satisfies(child.version, range, true)`), so with `react-native >=0.70` such an app cannot add the
 * SDK (RevenueCat/react-native-purchases issue 947 met the same with `>= 0.58.2`). The guide gives the app's own
 * version to the package with an override; this runs its line as written.
 * The package here is the repository's package.json peers alone (no files, no dependencies): npm's check is all that runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { npmEnv } from '../../release/packed.js';

const ROOT = join(import.meta.dirname, '../../..');
// Each case runs npm twice (about 2 to 5 s each).
vi.setConfig({ testTimeout: 60_000 });
let WORK = '';
let sdk = '';

/** Runs npm in `cwd`; its exit status and output. */
const npm = (args: string[], cwd: string) => {
  const run = spawnSync('npm', [...args, '--offline', '--no-audit', '--no-fund'], { cwd, env: npmEnv, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
};

/** The tarballs packed so far, by folder name. */
const packed = new Map<string, string>();

/** Packs a package made of `manifest` alone in `WORK/name` (once); the tarball's path. */
function packManifest(name: string, manifest: object): string {
  if (packed.has(name)) return packed.get(name)!;
  const dir = join(WORK, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  const run = spawnSync('npm', ['pack', '--json', '--pack-destination', WORK], { cwd: dir, env: npmEnv, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm pack failed: ${run.stderr}`);
  packed.set(name, join(WORK, (JSON.parse(run.stdout) as Array<{ filename: string }>)[0]!.filename));
  return packed.get(name)!;
}

/** An app with `react-native` at `version` installed (and `more` in its package.json), then the SDK installed into it. */
function installInto(version: string, more: object = {}) {
  const reactNative = packManifest(`react-native-${version}`, { name: 'react-native', version });
  const app = join(WORK, `app-${version}-${Object.keys(more).length}`);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'tv-game', version: '1.0.0', private: true, ...more }));
  const first = npm(['install', reactNative], app);
  if (first.status !== 0) throw new Error(`installing react-native ${version} failed: ${first.output}`);
  return npm(['install', sdk], app);
}

beforeAll(() => {
  WORK = mkdtempSync(join(tmpdir(), 'gc-peer-prerelease-'));
  const { name, version, peerDependencies, peerDependenciesMeta } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  sdk = packManifest('sdk', { name, version, peerDependencies, peerDependenciesMeta });
});
afterAll(() => {
  if (WORK) rmSync(WORK, { recursive: true, force: true });
});

describe("a React Native version numbered as a prerelease, against the package's react-native peer range (npm)", () => {
  it('a released React Native 0.79.5: installed', () => {
    expect(installInto('0.79.5')).toMatchObject({ status: 0 });
  });

  it.each([
    ['react-native-tvos 0.79.5-0 (a TV app)', '0.79.5-0'],
    ['a release candidate, 0.81.0-rc.5', '0.81.0-rc.5'],
  ])('%s: refused by npm (ERESOLVE) as the guide says', (_name, version) => {
    const { status, output } = installInto(version);
    expect(status).not.toBe(0);
    expect(output).toContain('ERESOLVE');
    expect(output).toContain('peerOptional react-native@">=0.70" from game-campaign-sdk');
  });

  it("react-native-tvos 0.79.5-0 with the guide's override: installed", () => {
    const guide = readFileSync(join(ROOT, 'docs/guides/react-native.md'), 'utf8');
    const line = /`("overrides": \{ "game-campaign-sdk": \{ "react-native": "0\.79\.5-0" \} \})`/.exec(guide)?.[1];
    expect(line, 'docs/guides/react-native.md: the override for a TV app').toBeDefined();
    expect(installInto('0.79.5-0', JSON.parse(`{${line}}`) as object)).toMatchObject({ status: 0 });
  });
});
