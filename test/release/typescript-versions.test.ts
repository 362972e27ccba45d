// The TypeScript versions games have: a game written in TypeScript compiles against the client entries' built
// declarations (dist/) with the compiler its template installs, not only the repository's. React Native 0.70's
// TypeScript template (react-native-template-typescript 6.12) asks `typescript` ^4.8.3 and the templates of 0.76 to
// 0.80 pin 5.0.4 (docs/guides/react-native.md); these run as exact-pinned npm aliases (`typescript-v4-8`,
// `typescript-v5-0`) next to the repository's own. Until p51 the declarations imported zod 4's, which stop 4.8 at
// syntax errors (`const` type parameters) and 5.0 at `NoInfer` (5.4): the last test shows that on the zod-typed
// rollup the build keeps in build/zod-declarations/. Runs after the build (`npm test` builds first).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { tsBlocks } from '../../scripts/doc-snippets.mjs';
import { ENTRIES } from '../../scripts/entries.mjs';

const ROOT = join(import.meta.dirname, '../..');
/**
 * Outside the repository: inside it, bundler resolution finds the package by its own name (TypeScript resolves a
 * package's self-reference before node_modules) and would read the repository's dist/ whatever is installed.
 */
let WORK: string;
const CLIENT_ENTRIES = ENTRIES.filter((entry) => entry.client);
const COMPILERS = [
  { name: 'typescript-v4-8', version: '4.8.4' },
  { name: 'typescript-v5-0', version: '5.0.4' },
  { name: 'typescript', version: (JSON.parse(readFileSync(join(ROOT, 'node_modules/typescript/package.json'), 'utf8')) as { version: string }).version },
];
/**
 * React Native 0.70's app globals (`fetch`, `Headers`, `Request`, `Response`, `AbortSignal`): @types/react-native
 * 0.70 (`types-react-native-v0-70`), which a 0.70 app installs (react-native ships its own types from 0.71). Its file
 * names `Event`, `EventTarget` and `Document` without declaring them: the template's `skipLibCheck` hides that, so
 * its own errors are left out below (ours are not).
 */
const RN_GLOBALS = join(ROOT, 'node_modules/types-react-native-v0-70/globals.d.ts');
/** `@tsconfig/react-native` 2.0.3, which React Native 0.70's template extends, with `skipLibCheck` off (our declarations are checked). */
const RN_070_OPTIONS = {
  ...{ target: 'esnext', module: 'commonjs', lib: ['es2019'], allowJs: true, jsx: 'react-native', noEmit: true, isolatedModules: true, strict: true },
  ...{ moduleResolution: 'node', resolveJsonModule: true, allowSyntheticDefaultImports: true, forceConsistentCasingInFileNames: true, esModuleInterop: true },
};

/**
 * `@react-native/typescript-config` 0.76.9, which the templates of React Native 0.76 to 0.80 extend (with
 * TypeScript 5.0.4), `skipLibCheck` off; their globals are react-native's own (the repository's, 0.88: its file's
 * own errors are left out as above).
 */
const RN_076_OPTIONS = {
  ...{ target: 'esnext', module: 'es2015', lib: ['es2019', 'es2020.promise', 'es2021.weakref', 'es2022.object'], allowJs: true, jsx: 'react-native', noEmit: true, isolatedModules: true, strict: true },
  ...{ moduleResolution: 'bundler', customConditions: ['react-native'], allowImportingTsExtensions: true, resolveJsonModule: true, allowSyntheticDefaultImports: true, esModuleInterop: true },
};
const RN_076_GLOBALS = join(ROOT, 'node_modules/react-native/src/types/globals.d.ts');

beforeAll(() => {
  if (!existsSync(join(ROOT, 'build/zod-declarations/index.d.ts'))) throw new Error('build/ is missing: run `npm run build` (npm test does it first)');
  WORK = mkdtempSync(join(tmpdir(), 'gc-ts-versions-'));
  // zod, for the zod-typed declarations (installed with the package, as npm would).
  mkdirSync(join(WORK, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules/zod'), join(WORK, 'node_modules/zod'), 'dir');
  // Two installs of the package: as built, and with the zod-typed declarations the build had before p51.
  for (const [install, dist] of [['built', join(ROOT, 'dist')], ['zod-typed', join(WORK, 'zod-dist')]] as const) {
    if (install === 'zod-typed') {
      mkdirSync(dist, { recursive: true });
      for (const entry of CLIENT_ENTRIES) for (const extension of ['d.ts', 'd.cts']) copyFileSync(join(ROOT, `build/zod-declarations/${entry.name}.d.ts`), join(dist, `${entry.name}.${extension}`));
    }
    const pkg = join(WORK, install, 'node_modules/game-campaign-sdk');
    mkdirSync(pkg, { recursive: true });
    copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    symlinkSync(dist, join(pkg, 'dist'), 'dir');
  }
});
afterAll(() => {
  if (WORK) rmSync(WORK, { recursive: true, force: true });
});

/** Whether `version` (x.y.z) is at least `major.minor`. */
const atLeast = (version: string, major: number, minor: number) => {
  const [x, y] = version.split('.').map(Number) as [number, number];
  return x > major || (x === major && y >= minor);
};

type Entry = (typeof ENTRIES)[number];
type Compiler = (typeof COMPILERS)[number];
/** How a game of an entry sets its compiler up: a name for the test, the options, the files of globals it adds. */
type Setup = { name: string; options: Record<string, unknown>; globals: string[] };

/**
 * The set-ups a game of `entry` has with `compiler`: a React Native app's template (0.70's; 0.76's too where the
 * compiler is 5.0 or later), any other game bundler resolution where the compiler has it (5.0+), else node.
 */
function setupsFor(entry: Entry, version: string): Setup[] {
  const deprecatedNode = atLeast(version, 6, 0) ? { ignoreDeprecations: '6.0' } : {};
  if (entry.name.startsWith('react-native')) {
    return [
      { name: "React Native 0.70's template options", options: { ...RN_070_OPTIONS, ...deprecatedNode, types: [] }, globals: [RN_GLOBALS] },
      ...(atLeast(version, 5, 0) ? [{ name: "React Native 0.76's template options", options: { ...RN_076_OPTIONS, types: [] }, globals: [RN_076_GLOBALS] }] : []),
    ];
  }
  const resolution = atLeast(version, 5, 0) ? { moduleResolution: 'bundler' } : { moduleResolution: 'node', ...deprecatedNode };
  const name = atLeast(version, 5, 0) ? 'bundler resolution' : 'node resolution';
  return [{ name, options: { target: 'es2020', module: 'esnext', lib: ['es2020', 'dom', 'dom.iterable'], strict: true, noEmit: true, types: [], ...resolution }, globals: [] }];
}

/** tsc's errors for a consumer file of `entry` in `install`, compiled by `compiler` with `setup`, skipLibCheck off (the globals' own errors left out). */
function compile(install: string, entry: Entry, compiler: Compiler, setup: Setup): string[] {
  const app = join(WORK, install);
  const name = `${entry.name}-${compiler.name}-${setup.globals.length ? setup.name.replace(/\W+/g, '-') : 'game'}`;
  const specifier = entry.subpath === '.' ? 'game-campaign-sdk' : `game-campaign-sdk/${entry.subpath.slice(2)}`;
  writeFileSync(join(app, `${name}.ts`), `import * as sdk from '${specifier}';\nexport const used: typeof sdk = sdk;\n`);
  writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: { ...setup.options, skipLibCheck: false }, files: [`${name}.ts`, ...setup.globals] }));
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', compiler.name, 'bin/tsc'), '-p', `tsconfig.${name}.json`, '--pretty', 'false'], { cwd: app, encoding: 'utf8' });
  const output = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim());
  // A globals file's own error, and the lines that continue it (indented).
  const kept: string[] = [];
  let skipping = false;
  for (const line of output) {
    if (!/^\s/.test(line)) skipping = setup.globals.some((file) => line.includes(relative(app, file)) || line.includes(file));
    if (!skipping) kept.push(line);
  }
  return kept;
}

describe('the client entries compile with the TypeScript versions games have', () => {
  it('runs the compilers it names (the aliases are installed, and `tsc` stays the repository\'s own)', () => {
    for (const compiler of COMPILERS) {
      const version = spawnSync(process.execPath, [join(ROOT, 'node_modules', compiler.name, 'bin/tsc'), '--version'], { encoding: 'utf8' }).stdout.trim();
      expect(version).toBe(`Version ${compiler.version}`);
    }
    // npm links every package's bins, an alias's too: node_modules/.bin/tsc must stay TypeScript's own.
    expect(realpathSync(join(ROOT, 'node_modules/.bin/tsc'))).toBe(realpathSync(join(ROOT, 'node_modules/typescript/bin/tsc')));
  });

  for (const compiler of COMPILERS) {
    for (const entry of CLIENT_ENTRIES) {
      for (const setup of setupsFor(entry, compiler.version)) {
        it(`${entry.subpath === '.' ? 'game-campaign-sdk' : entry.subpath} with TypeScript ${compiler.version} (${setup.name}, skipLibCheck off)`, () => {
          expect(compile('built', entry, compiler, setup)).toEqual([]);
        }, 120_000);
      }
    }
  }

  /**
   * The guide says a React Native 0.70 app's TypeScript 4.8 is enough: its blocks, as an app copies them, against the
   * modules' own types of that app's versions (mapped by `paths` to the repository's aliases): @types/react-native 0.70,
   * AsyncStorage 2.2.0 with NetInfo 11.4.1, or Expo SDK 47's 1.17.3 with 9.3.5, react-native-webview 11.23.1, and the
   * repository's @types/react. The template's options, its `skipLibCheck` on (the declarations are checked with it off above).
   */
  it.each([
    ['AsyncStorage 2.2.0, NetInfo 11.4.1', 'async-storage-v2', 'netinfo-v11'],
    ['AsyncStorage 1.17.3, NetInfo 9.3.5 (Expo SDK 47)', 'async-storage-v1-17', 'netinfo-v9'],
  ])("the React Native guide's blocks compile with TypeScript 4.8.4 and React Native 0.70's template (%s)", (name, asyncStorage, netInfo) => {
    const app = join(WORK, 'built');
    const blocks = (tsBlocks(readFileSync(join(ROOT, 'docs/guides/react-native.md'), 'utf8')) as Array<{ line: number; tsx: boolean; code: string; mark?: string }>).filter((block) => block.mark !== 'fragment');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const tag = asyncStorage.replace(/\W+/g, '-');
    const files = blocks.map((block) => {
      const file = `rn-guide-${tag}-L${block.line}.${block.tsx ? 'tsx' : 'ts'}`;
      writeFileSync(join(app, file), block.code);
      return file;
    });
    const modules = join(ROOT, 'node_modules');
    const paths = {
      react: [join(modules, '@types/react/index.d.ts')],
      'react-native': [join(modules, 'types-react-native-v0-70/index.d.ts')],
      '@react-native-async-storage/async-storage': [join(modules, asyncStorage, 'lib/typescript/index.d.ts')],
      '@react-native-community/netinfo': [join(modules, netInfo, 'lib/typescript/src/index.d.ts')],
      'react-native-webview': [join(modules, 'webview-v11/index.d.ts')],
    };
    const config = `tsconfig.rn-guide-${tag}.json`;
    writeFileSync(join(app, config), JSON.stringify({ compilerOptions: { ...RN_070_OPTIONS, skipLibCheck: true, types: [], paths }, files }));
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript-v4-8/bin/tsc'), '-p', config, '--pretty', 'false'], { cwd: app, encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`, name).toBe('');
  }, 120_000);

  it('failed before p51: the zod-typed declarations stop TypeScript 4.8 and 5.0 inside zod\'s declarations (the check itself works)', () => {
    for (const compiler of COMPILERS.slice(0, 2)) {
      for (const entry of CLIENT_ENTRIES) {
        for (const setup of setupsFor(entry, compiler.version)) {
          const errors = compile('zod-typed', entry, compiler, setup);
          expect(errors.length, `${entry.name} with ${compiler.version}, ${setup.name}`).toBeGreaterThan(0);
          expect(errors.filter((line) => !/node_modules\/zod\//.test(line)), `${entry.name} with ${compiler.version}, ${setup.name}`).toEqual([]);
        }
      }
    }
  }, 240_000);
});
