// The package as a studio gets it: `npm pack` of the built tree, then `npm install <tarball>` in a fresh folder
// with no network.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** npm's own settings stay; those an outer `npm test` exports for its package (local prefix, lifecycle, package fields) do not. */
const KEPT_NPM_SETTINGS = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_globalconfig', 'npm_config_registry', 'npm_config_cafile']);
export const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || KEPT_NPM_SETTINGS.has(key.toLowerCase())));

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, env: npmEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export interface Packed {
  tarball: string;
  /** Paths inside the tarball, without the `package/` prefix. */
  files: string[];
  /** The package.json the tarball carries. */
  manifest: { version: string; repository?: unknown; exports: Record<string, unknown>; bin: Record<string, string>; dependencies: Record<string, string>; scripts?: Record<string, string> };
}

/**
 * Packs `root` into `dir` as it is: `--ignore-scripts` skips prepack's build, which `npm test` has just run
 * (building again would rewrite dist/ under the suites reading it).
 */
export function pack(root: string, dir: string): Packed {
  const [result] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const tarball = join(dir, result!.filename);
  const unpacked = join(dir, 'unpacked');
  mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
  const manifest = JSON.parse(readFileSync(join(unpacked, 'package/package.json'), 'utf8')) as Packed['manifest'];
  return { tarball, files: result!.files.map((file) => file.path).sort(), manifest };
}

interface LockEntry {
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * Installs the tarball into a new project in `dir` with `npm install <tarball> --offline` and returns npm's
 * output (stdout and stderr). The npm cache holds the runtime dependencies' tarballs (npm ci fetched them by
 * integrity) but not the registry documents npm install resolves versions from, so the project starts with a
 * lockfile holding those dependencies as the repository's package-lock.json pins them: npm then resolves
 * nothing and fetches nothing.
 */
export function installOffline(root: string, packed: Packed, dir: string): string {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const packages: Record<string, LockEntry | { name: string }> = { '': { name: 'consumer' } };
  const pending = Object.keys(packed.manifest.dependencies);
  while (pending.length > 0) {
    const name = pending.pop()!;
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const entry = lock.packages[key];
    if (!entry) throw new Error(`package-lock.json has no ${key}`);
    packages[key] = entry;
    const requiredPeers = Object.keys(entry.peerDependencies ?? {}).filter((peer) => !entry.peerDependenciesMeta?.[peer]?.optional);
    pending.push(...Object.keys(entry.dependencies ?? {}), ...requiredPeers);
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }));
  const install = spawnSync('npm', ['install', packed.tarball, '--offline', '--no-audit', '--no-fund'], { cwd: dir, env: npmEnv, encoding: 'utf8' });
  const output = `${install.stdout}${install.stderr}`;
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${output}`);
  return output;
}
