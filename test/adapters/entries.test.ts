/**
 * The `cocos` and `react-native` entries load in plain Node (no engine, no React Native) and touch no global
 * at import: each entry, bundled with its dependencies, runs in a context that records every global it
 * reads or writes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const ENTRIES = [
  { subpath: 'game-campaign-sdk/cocos', source: 'adapters/cocos/index.ts', exports: ['createGameCampaign', 'createCocosPlatform', 'createXhrFetch', 'WebViewUnavailableError'] },
  { subpath: 'game-campaign-sdk/react-native', source: 'adapters/react-native/index.ts', exports: ['createGameCampaign', 'createReactNativePlatform', 'createWebViewHost', 'CryptoUnavailableError'] },
];
/** What an adapter may only read when the game creates it (or never): the runtimes' own objects. */
const PLATFORM_GLOBALS = ['window', 'document', 'navigator', 'localStorage', 'indexedDB', 'cc', 'jsb', 'wx', 'tt', 'crypto', 'fetch', 'XMLHttpRequest', 'AbortController', 'URLSearchParams', 'performance', 'require', 'process', 'Buffer'];

/**
 * Globals a dependency of the core sets at import, not ours: zod 4 keeps its config on `globalThis`. It leaves
 * with zod when game-client bundles stop carrying it (DESIGN section 11); then this list is empty.
 */
const DEPENDENCY_GLOBALS = ['__zod_globalConfig'];

/**
 * Runs `code` (an IIFE assigning `entry`) in a fresh context whose platform globals are getters that log each
 * read (the language's own globals stay the context's own); reports the globals it created.
 */
function runRecording(code: string): { reads: Set<string>; writes: Set<string>; entry: Record<string, unknown> } {
  const reads = new Set<string>();
  const sandbox: Record<string, unknown> = {};
  for (const name of PLATFORM_GLOBALS) {
    Object.defineProperty(sandbox, name, {
      configurable: true,
      get: () => void reads.add(name),
      set: () => undefined,
    });
  }
  const before = new Set(Object.getOwnPropertyNames(sandbox));
  const context = createContext(sandbox);
  runInContext(code, context);
  const writes = new Set(Object.getOwnPropertyNames(sandbox).filter((name) => !before.has(name)));
  const setters = PLATFORM_GLOBALS.filter((name) => Object.getOwnPropertyDescriptor(sandbox, name)?.get === undefined);
  for (const name of setters) writes.add(name);
  return { reads, writes, entry: sandbox['entry'] as Record<string, unknown> };
}

/** The built entry as a game's bundler would see it. */
async function bundle(source: string): Promise<string> {
  const result = await build({ entryPoints: [join(ROOT, source)], bundle: true, format: 'iife', globalName: 'entry', platform: 'neutral', target: 'es2020', write: false, logLevel: 'silent' });
  return result.outputFiles[0]!.text;
}

describe.each(ENTRIES)('$subpath', ({ subpath, source, exports }) => {
  it('touches no platform global and writes no global at import', async () => {
    const { reads, writes, entry } = runRecording(await bundle(source));
    expect(PLATFORM_GLOBALS.filter((name) => reads.has(name))).toEqual([]);
    expect([...writes].filter((name) => !DEPENDENCY_GLOBALS.includes(name))).toEqual(['entry']);
    for (const name of exports) expect(typeof entry[name], name).toBe('function');
  });

  it('the recording sees a global read at import (the check itself works)', () => {
    const { reads, writes } = runRecording('var entry = {}; const storage = typeof localStorage; globalThis.leaked = 1;');
    expect([reads.has('localStorage'), writes.has('leaked')]).toEqual([true, true]);
  });

  it('imports and requires in plain Node from the built package', () => {
    if (!existsSync(join(ROOT, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
    const script = `const esm = await import('${subpath}'); const cjs = (await import('node:module')).createRequire(import.meta.url)('${subpath}');
      console.log(JSON.stringify([Object.keys(esm).sort(), Object.keys(cjs).sort()]));`;
    const [esm, cjs] = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as string[][];
    expect(esm).toEqual(cjs);
    expect(esm).toEqual(expect.arrayContaining(exports));
  });
});
