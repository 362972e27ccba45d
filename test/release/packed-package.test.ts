// The published package, checked from the tarball `npm pack` makes (not from the tree): publint and Are the
// Types Wrong clean, exactly the files a user needs, nothing run at install, and once installed offline in a
// fresh folder every entry loads through import and require (their errors `instanceof` each other's classes), the
// guides' code blocks compile against the installed types with a studio's strictest settings, the quick start runs
// (the getting-started game server on Node, the browser guide's page bundled in Chromium), and the bin starts the
// emulator. One pack and one install serve every check. Runs after the build (`npm test` builds first).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { markdownFiles, tsBlocks } from '../../scripts/doc-snippets.mjs';
import { ENTRIES } from '../../scripts/entries.mjs';
import { REPOSITORY, TAGGED_DOCS } from '../../scripts/release.mjs';
import { DEMO_ACTIVE_CAMPAIGN_ID, startEmulator } from '../../emulator/index.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { linkedFiles, links } from './linked-files.js';
import { installOffline, npmEnv, pack, type Packed } from './packed.js';

const ROOT = join(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);

/**
 * Every client subpath's classic sub-folder, for tools that read no export map: `/react-native` and
 * `/react-native/picker` for Metro before 0.82 (React Native 0.78 and older), `/browser` and `/cocos` for Parcel 2
 * (its `packageExports` is off unless a project turns it on) and webpack 4.
 */
const SUB_FOLDERS = Object.fromEntries(ENTRIES.filter((entry) => entry.client && entry.subpath !== '.').map((entry) => [entry.subpath, `${entry.subpath.slice(2)}/package.json`]));
/** Files of the `<script>` form: plain files served next to a page, not modules to import. */
const scriptFiles = (manifest: Packed['manifest']) => Object.keys(manifest.exports).filter((subpath) => subpath.startsWith('./game-campaign.'));

let work: string;
let packed: Packed;
let consumer: string;
let installOutput: string;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
  work = mkdtempSync(join(tmpdir(), 'gc-packed-'));
  packed = pack(ROOT, work);
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  installOutput = installOffline(ROOT, packed, consumer);
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('holds exactly dist/, the bin, package.json, README, LICENSE, CHANGELOG, SECURITY and the docs the README links', () => {
    const walk = (dir: string): string[] => readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => relative(ROOT, join(e.parentPath, e.name)));
    const packaged = linkedFiles(ROOT);
    expect(packaged).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'SECURITY.md', 'docs/getting-started.md']));
    const expected = [...walk('dist'), ...Object.values(packed.manifest.bin).map((bin) => bin.replace(/^\.\//, '')), 'package.json', ...Object.values(SUB_FOLDERS), ...packaged];
    expect(packed.files).toEqual([...new Set(expected)].sort());
  });

  // Until p19 the README, getting-started and the Cocos and React Native guides linked samples/, docs/reference/ and
  // CONTRIBUTING.md relatively: 13 dead links in node_modules, and on npm, with no "repository" to resolve them by.
  it("has no dead link in the Markdown it carries: relative ones reach the tarball's files, the rest the repository at this release's tag", () => {
    const unpacked = join(work, 'unpacked/package');
    const tag = `${REPOSITORY}/blob/v${packed.manifest.version}/`;
    const taggedDocs = (file: string) => TAGGED_DOCS.some((path) => file === path || file.startsWith(`${path}/`));
    const dead: string[] = [];
    let repositoryLinks = 0;
    for (const file of packed.files.filter((path) => path.endsWith('.md'))) {
      for (const target of links(readFileSync(join(unpacked, file), 'utf8'))) {
        const path = decodeURIComponent(target.split('#')[0]!);
        if (target.startsWith(`${REPOSITORY}/`)) {
          if (file === 'CHANGELOG.md') continue; // history: each entry as written for its release
          repositoryLinks++;
          // npm run release retags TAGGED_DOCS only; the tag is cut from this tree.
          if (!taggedDocs(file) || !target.startsWith(tag) || !existsSync(join(ROOT, path.slice(tag.length)))) dead.push(`${file}: ${target}`);
        } else if (!/^(https?:|mailto:|#)/.test(target) && !existsSync(join(unpacked, dirname(file), path))) dead.push(`${file}: ${target}`);
      }
    }
    expect(dead).toEqual([]);
    expect(repositoryLinks).toBeGreaterThan(0);
    expect(packed.manifest.repository).toEqual({ type: 'git', url: `git+${REPOSITORY}.git` });
  });

  it('holds no tests, fixtures of tests or TypeScript sources (declarations and the linked docs/examples aside)', () => {
    expect(packed.files.filter((file) => /(^|\/)(test|tests|__tests__|__fixtures__)\//.test(file) || /\.(test|spec)\.[cm]?[jt]s$/.test(file))).toEqual([]);
    expect(packed.files.filter((file) => /\.[cm]?tsx?$/.test(file) && !/\.d\.c?ts$/.test(file) && !file.startsWith('docs/examples/'))).toEqual([]);
  });

  // Until p19 only React Native's entries had one: Parcel 2 as installed failed on `import ... from
  // 'game-campaign-sdk/browser'` ("Cannot load file './browser' from module 'game-campaign-sdk'").
  it.each(Object.entries(SUB_FOLDERS))('holds the classic sub-folder of %s for tools without package exports, pointing at the files of the export map', (subpath, file) => {
    expect(packed.files).toContain(file);
    const folder = JSON.parse(readFileSync(join(work, 'unpacked/package', file), 'utf8')) as Record<string, string>;
    const entry = (packed.manifest.exports as Record<string, { import: Record<string, string>; require: Record<string, string> }>)[subpath]!;
    const fromRoot = (path: string | undefined) => path && join(dirname(file), path).replace(/\\/g, '/');
    const reactNative = subpath.startsWith('./react-native');
    expect({ main: fromRoot(folder.main), module: fromRoot(folder.module), 'react-native': fromRoot(folder['react-native']), types: fromRoot(folder.types), sideEffects: folder.sideEffects }).toEqual({
      main: entry.require.default!.slice(2),
      module: entry.import.default!.slice(2),
      'react-native': reactNative ? entry.import.default!.slice(2) : undefined,
      types: entry.import.types!.slice(2),
      sideEffects: false,
    });
  });

  // On 7ec7702 the 18 rolled-up declarations (dist/*.d.ts, *.d.cts) had CRLF line endings, api-extractor's default.
  it('holds text files with LF line endings only (no CR), declarations included', () => {
    const unpacked = join(work, 'unpacked/package');
    const withCr = packed.files.filter((file) => {
      const bytes = readFileSync(join(unpacked, file));
      return !bytes.includes(0) && bytes.includes(0x0d); // a file with a NUL byte is binary
    });
    expect(packed.files.filter((file) => file.endsWith('.d.ts')).length).toBeGreaterThan(0);
    expect(withCr).toEqual([]);
  });

  it('asks to run nothing at install: no preinstall, install, postinstall or prepare script', () => {
    const scripts = Object.keys(packed.manifest.scripts ?? {});
    expect(scripts.filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([]);
    expect(scripts).toContain('prepack'); // the build runs before packing instead
    expect(installOutput).not.toMatch(/install-scripts|prepare:/); // npm 11 warns every installer of a package with one
  });

  // The server entries' declarations import zod 4's, which need TypeScript 5.5, the client entries' from 4.8 (README,
  // test/release/typescript-versions.test.ts); until p19 the React Native entry's also needed 5.7
  // (`Uint8Array<ArrayBuffer>`: "Type 'Uint8Array' is not generic" before, even for a project that never passes
  // expo-crypto). Typed arrays and ArrayBuffer views became generic in TypeScript 5.7's lib.
  it("has declarations a TypeScript before 5.7 reads: no typed array or ArrayBuffer view given a type argument (generic only since 5.7's lib)", () => {
    const unpacked = join(work, 'unpacked/package');
    const generic = /\b(?:(?:Big)?(?:Int|Uint|Float)(?:8|16|32|64)(?:Clamped)?Array|DataView|ArrayBufferView)</;
    const uses = packed.files.filter((file) => /\.d\.c?ts$/.test(file)).flatMap((file) =>
      readFileSync(join(unpacked, file), 'utf8').split('\n').flatMap((line, index) => (generic.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])));
    expect(uses).toEqual([]);
  });

  // Until p19 `npm publish` warned "npm auto-corrected some errors in your package.json ... \"bin[game-campaign-emulator]\"
  // script name bin/game-campaign-emulator.js was invalid and removed" (npm 11 writes bin paths without `./`).
  it('has a manifest npm publishes as written: `npm pkg fix` (the corrections publish applies) changes nothing', () => {
    const copy = join(work, 'pkg-fix');
    mkdirSync(copy);
    const before = readFileSync(join(work, 'unpacked/package/package.json'), 'utf8');
    writeFileSync(join(copy, 'package.json'), before);
    const run = spawnSync('npm', ['pkg', 'fix'], { cwd: copy, env: npmEnv, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(before);
  });

  // Until p19 @noble/hashes, bundled into dist/ since rollup.config.mjs vendors it, was still a dependency: npm
  // installed a package nothing imports and warned EBADENGINE on Node 20.0-20.18 (its engines: >= 20.19.0), which
  // the package itself supports (>= 20); with engine-strict the install failed.
  it('depends at run time only on packages its shipped code imports, and code bundled into it carries its license', () => {
    const unpacked = join(work, 'unpacked/package');
    const code = packed.files.filter((file) => /\.(c?js|d\.c?ts)$/.test(file)).map((file) => readFileSync(join(unpacked, file), 'utf8')).join('\n');
    const imported = (name: string) => new RegExp(`(?:from|import|require)\\s*\\(?\\s*["']${name.replace(/[/.]/g, '\\$&')}(?:/[^"']*)?["']`).test(code);
    expect(Object.keys(packed.manifest.dependencies).filter((name) => !imported(name))).toEqual([]);
    const vendored = [...new Set(packed.files.filter((file) => file.startsWith('dist/modules/vendor/')).map((file) => file.split('/').slice(3, 5).join('/')))];
    expect(vendored).toEqual(['@noble/hashes']);
    for (const name of vendored) expect(readFileSync(join(unpacked, `dist/modules/vendor/${name}/LICENSE`), 'utf8')).toBe(readFileSync(join(ROOT, `node_modules/${name}/LICENSE`), 'utf8'));
  });

  it('is publint clean, suggestions included', async () => {
    const tarball = readFileSync(packed.tarball);
    const { messages, pkg } = await publint({ pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) }, level: 'suggestion', strict: true });
    expect(messages.map((message) => formatMessage(message, pkg, { color: false }))).toEqual([]);
  });

  it('has types that resolve for every entry under node10, node16 (CJS and ESM) and bundler (Are the Types Wrong)', () => {
    const cli = require.resolve('@arethetypeswrong/cli/package.json');
    const bin = join(cli, '..', (JSON.parse(readFileSync(cli, 'utf8')) as { bin: Record<string, string> }).bin['attw']!);
    // The <script> files are not modules: the IIFE's .d.ts declares a global, the siblings have no types by design.
    const run = spawnSync(process.execPath, [bin, packed.tarball, '--format', 'json', '--exclude-entrypoints', ...scriptFiles(packed.manifest)], { encoding: 'utf8', env: npmEnv });
    const report = JSON.parse(run.stdout) as { analysis: { problems: unknown[]; entrypoints: Record<string, unknown> } };
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual([...ENTRIES.map((entry) => entry.subpath), './package.json'].sort());
    expect(report.analysis.problems).toEqual([]);
  });
});

describe('installed from the tarball in a fresh folder', () => {
  it('loads every entry of "exports" through import and through require, with the same names', () => {
    const subpaths = Object.keys(packed.manifest.exports).filter((subpath) => subpath !== './package.json' && !scriptFiles(packed.manifest).includes(subpath));
    expect(subpaths.sort()).toEqual(ENTRIES.map((entry) => entry.subpath).sort());
    const specifiers = subpaths.map((subpath) => `game-campaign-sdk${subpath.slice(1)}`);
    // A plain Node in the consumer folder: resolution through its node_modules only, as a studio's code gets it.
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(process.cwd() + '/');
      const loaded = {};
      for (const specifier of ${JSON.stringify(specifiers)}) {
        loaded[specifier] = { file: require.resolve(specifier), esm: Object.keys(await import(specifier)).sort(), cjs: Object.keys(require(specifier)).sort() };
      }
      console.log(JSON.stringify(loaded));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const loaded = JSON.parse(run.stdout) as Record<string, { file: string; esm: string[]; cjs: string[] }>;
    expect(Object.keys(loaded)).toEqual(specifiers);
    for (const [specifier, { file, esm, cjs }] of Object.entries(loaded)) {
      expect(file.startsWith(join(consumer, 'node_modules/game-campaign-sdk/dist/')), `${specifier} from ${file}`).toBe(true);
      expect(esm.length, specifier).toBeGreaterThan(0);
      expect(cjs, specifier).toEqual(esm);
    }
  });

  // A web game's page rendered on a server (SSR: Next.js, Nuxt, Remix on Node) that creates the SDK there: until p19
  // the error said "not in a Web Worker", which a developer on Node does not recognise as their case.
  it('says a server is the wrong place when the browser entry is created on one (server-side rendering), through import and require', () => {
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(process.cwd() + '/');
      const options = { clientKey: 'ck_key:secret', relay: { url: 'https://game.example/campaign' }, userId: 'player-1' };
      const messages = [];
      for (const { createGameCampaign } of [await import('game-campaign-sdk/browser'), require('game-campaign-sdk/browser')]) {
        try { createGameCampaign(options); messages.push('created'); } catch (error) { messages.push(\`\${error.name}: \${error.message}\`); }
      }
      console.log(JSON.stringify(messages));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const message = 'TypeError: game-campaign-sdk/browser runs on a page (window, document), not in a Web Worker or server';
    expect(JSON.parse(run.stdout)).toEqual([message, message]);
  });

  // The dual package hazard: a server that `require`s the package in one module and `import`s it in another holds
  // both builds; an error thrown by one is an instance of the other's classes (core/http/errors.ts).
  it("keeps instanceof between the ESM and CJS builds' errors", () => {
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(process.cwd() + '/');
      const esm = await import('game-campaign-sdk/server');
      const cjs = require('game-campaign-sdk/server');
      const fromEsm = new esm.NotFoundError({ code: 'NOT_FOUND', message: 'x', status: 404 });
      const fromCjs = new cjs.BoostCooldownError({ code: 'BAD_REQUEST', message: 'x', status: 400, daysRemaining: 3 });
      console.log(JSON.stringify([esm.NotFoundError === cjs.NotFoundError, fromEsm instanceof cjs.NotFoundError, fromEsm instanceof cjs.CampaignError,
        fromCjs instanceof esm.BadRequestError, fromEsm instanceof cjs.ConflictError]));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([false, true, true, true, false]);
  });

  // test/docs type-checks the guides against the sources with the project's settings; a studio compiles them against
  // the published declarations, often with stricter settings than ours (exactOptionalPropertyTypes, skipLibCheck off).
  it("compiles the guides' code blocks against the installed types with a studio's strictest settings (nodenext, ESM)", () => {
    const dir = join(consumer, 'snippets');
    mkdirSync(dir);
    let count = 0;
    // Every block but the React Native and Cocos guides' (their apps' settings and engine types: below). Another
    // package a block imports (rate-limiter-flexible, ioredis for the relay's stores) is the one the package installed,
    // or the repository's linked in, as a studio's project has it: until p24 such blocks were left out here.
    const linked = new Set<string>();
    for (const file of (markdownFiles() as string[]).filter((file) => file !== 'docs/guides/react-native.md')) {
      let above = '';   // a block marked `<!-- snippet: continues -->` goes on from the one above it (scripts/doc-snippets.mjs)
      for (const block of tsBlocks(readFileSync(join(ROOT, file), 'utf8')) as Array<{ line: number; tsx: boolean; code: string; mark?: string }>) {
        if (block.mark === 'continues') block.code = `${above}\n${block.code}`;
        above = block.code;
        const imports = [...block.code.matchAll(/from '([^']+)'/g)].map(([, specifier]) => specifier!);
        // A fragment uses test/docs/snippet-context.d.ts's names (checked with them by test/docs); every other block
        // compiles here as copied, without them.
        if (block.tsx || imports.includes('cc') || block.mark === 'fragment') continue;
        for (const specifier of imports) {
          const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
          if (!name.startsWith('game-campaign-sdk') && !name.startsWith('node:') && !existsSync(join(consumer, 'node_modules', name))) linked.add(name);
        }
        writeFileSync(join(dir, `${file.replace(/[^\w]+/g, '_')}_L${block.line}.mts`), `export {};\n${block.code}\n`);
        count++;
      }
    }
    for (const name of linked) {
      mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
    }
    expect([...linked]).toEqual(['ioredis']);
    copyFileSync(join(ROOT, 'test/docs/runtime-globals.d.ts'), join(dir, 'runtime-globals.d.ts'));
    // Each entry's rolled-up .d.ts declares the shared classes again: what one entry makes, another entry's types
    // take, as the guides pass it (an adapter's `gc` to the picker example typed by the main entry; a `/server`
    // receiver to `/node`'s webhookMiddleware).
    copyFileSync(join(ROOT, 'docs/examples/picker-dom.ts'), join(dir, 'picker-dom.mts'));
    writeFileSync(join(dir, 'across-entries.mts'), `
      import type { CampaignClient, GameCampaign, PlaytimeTracker } from 'game-campaign-sdk';
      import { CampaignClient as BrowserClient, createGameCampaign as browserGame } from 'game-campaign-sdk/browser';
      import { createGameCampaign as cocosGame } from 'game-campaign-sdk/cocos';
      import { webhookMiddleware } from 'game-campaign-sdk/node';
      import { createWebhookReceiver } from 'game-campaign-sdk/server';
      import { mountCreatorPicker } from './picker-dom.mjs';
      declare const cc: Parameters<typeof cocosGame>[0]['cc'];
      const options = { clientKey: 'ck_key:secret', relay: { url: '/campaign' }, userId: 'player-1' };
      const gc = browserGame(options);
      mountCreatorPicker(gc, document.body, 'cmp_spring_festival');
      const fromCocos: GameCampaign = cocosGame({ ...options, cc });
      const tracker: PlaytimeTracker = gc.tracker;
      const client: CampaignClient = new BrowserClient({ clientKey: 'ck_key:secret' });
      export const used = [fromCocos, tracker, client, webhookMiddleware(createWebhookReceiver({ secret: 'whsec_c2VjcmV0' }))];
    `);
    const compilerOptions = {
      ...{ target: 'es2022', lib: ['es2022', 'dom', 'dom.iterable'], module: 'nodenext', moduleResolution: 'nodenext', noEmit: true },
      ...{ strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: false },
      ...{ typeRoots: [join(ROOT, 'node_modules/@types')], types: ['node'] },
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.mts', 'runtime-globals.d.ts'] }));
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir, '--pretty', 'false'], { cwd: consumer, encoding: 'utf8' });
    expect(count).toBeGreaterThan(20);
    expect(`${run.stdout}${run.stderr}`).toBe('');
  }, 120_000);

  // The README's TypeScript line: the declarations import zod's, whose locales are `export =` modules re-exported as
  // defaults (zod/v4/locales/index.d.cts), so a project with neither esModuleInterop nor allowSyntheticDefaultImports
  // (TypeScript 5's defaults for `module: commonjs` and node10 resolution) and skipLibCheck off fails there with
  // TS1259 (zod's answer: colinhacks/zod#5160). With esModuleInterop, or skipLibCheck, it compiles.
  it("compiles a CommonJS server under node10 resolution with esModuleInterop, as the README says (without it: TS1259 inside zod's declarations only)", () => {
    const app = join(consumer, 'node10-server');
    mkdirSync(app);
    writeFileSync(join(app, 'server.ts'), `
      import { CampaignServer, createRelay, type BoostRecord } from 'game-campaign-sdk/server';
      import { toNodeHandler } from 'game-campaign-sdk/node';
      import { PlaytimeTracker } from 'game-campaign-sdk';
      const server = new CampaignServer({ serverKey: 'sk_key:secret', environment: 'sandbox' });
      export const handler = toNodeHandler(createRelay({ server, authenticate: async () => ({ userId: 'player-1' }) }));
      export const used: [typeof PlaytimeTracker, BoostRecord | undefined] = [PlaytimeTracker, undefined];
    `);
    const compile = (interop: boolean, skipLibCheck = false) => {
      const compilerOptions = { target: 'es2022', lib: ['es2022', 'dom'], module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0', strict: true, noEmit: true, esModuleInterop: interop, allowSyntheticDefaultImports: interop, skipLibCheck, typeRoots: [join(ROOT, 'node_modules/@types')], types: ['node'] };
      writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['server.ts'] }));
      const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app, '--pretty', 'false'], { cwd: app, encoding: 'utf8' });
      return `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim());
    };
    expect(compile(true)).toEqual([]);
    expect(compile(false, true)).toEqual([]);
    const without = compile(false);
    expect(without.length).toBeGreaterThan(0);
    expect(without.filter((line) => !/node_modules\/zod\/.*: error TS1259: /.test(line))).toEqual([]);
  }, 120_000);

  // The browser guide's types for the `<script>` global: a game's own script with the guide's `/// <reference>` line. A
  // script game's tsconfig often sets only `target` (and `module: esnext`), which on TypeScript 5 means classic
  // resolution (TypeScript 6 made bundler the default; classic is asked for by name here, as TypeScript 5's default):
  // until p51 the declarations' `import ... from 'zod/mini'` was then not found (TS2792); they import nothing now
  // (scripts/plain-declarations.mjs).
  it("type-checks a <script> game's code with the guide's reference line under bundler and classic resolution (the declarations import no package)", () => {
    const app = join(consumer, 'script-game');
    mkdirSync(app);
    const reference = /`(\/\/\/ <reference path="node_modules\/game-campaign-sdk\/dist\/game-campaign\.iife\.d\.ts" \/>)`/.exec(readFileSync(join(ROOT, 'docs/guides/browser.md'), 'utf8'))?.[1];
    expect(reference, 'docs/guides/browser.md: the reference line').toBeDefined();
    writeFileSync(join(app, 'game.ts'), `${reference!.replace('node_modules/', '../node_modules/')}
      const gc = GameCampaign.createGameCampaign({ clientKey: 'ck_key:secret', relay: { url: '/campaign' }, userId: 'player-1' });
      gc.tracker.start();
      export const used = [gc, GameCampaign.CampaignClient, GameCampaign.createBrowserPlatform];
    `);
    const compile = (moduleResolution: string) => {
      const compilerOptions = { target: 'es2020', lib: ['es2020', 'dom'], module: 'esnext', moduleResolution, ignoreDeprecations: '6.0', strict: true, noEmit: true, skipLibCheck: false, types: [] };
      writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['game.ts'] }));
      const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app, '--pretty', 'false'], { cwd: app, encoding: 'utf8' });
      return `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim());
    };
    expect(compile('bundler')).toEqual([]);
    expect(compile('classic')).toEqual([]);
  }, 120_000);

  /**
   * Compiles `sources` in a folder of the consumer (the SDK resolves from its install) with the engine's type
   * packages linked from the repository's node_modules (each module a source imports, and `packages`). Returns tsc's output.
   */
  function compileApp(name: string, sources: Record<string, string>, packages: string[], compilerOptions: Record<string, unknown>): string {
    const app = join(consumer, name);
    mkdirSync(app);
    const linked = new Set(packages);
    for (const code of Object.values(sources)) {
      for (const [, specifier] of code.matchAll(/(?:from|import) '([^']+)'/g)) {
        if (!specifier!.startsWith('game-campaign-sdk') && !specifier!.startsWith('.') && specifier !== 'cc') linked.add(specifier!.split('/').slice(0, specifier!.startsWith('@') ? 2 : 1).join('/'));
      }
    }
    for (const pkg of linked) {
      mkdirSync(dirname(join(app, 'node_modules', pkg)), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', pkg), join(app, 'node_modules', pkg), 'dir');
    }
    for (const [file, code] of Object.entries(sources)) writeFileSync(join(app, file), code);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true, strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true }, include: ['*.ts', '*.tsx'] }));
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app, '--pretty', 'false'], { cwd: app, encoding: 'utf8' });
    return `${run.stdout}${run.stderr}`;
  }

  /** A guide's TypeScript blocks, one module each, as copied (a fragment, which uses test/docs/snippet-context.d.ts's names, left out). */
  const guideBlocks = (guide: string) => Object.fromEntries((tsBlocks(readFileSync(join(ROOT, guide), 'utf8')) as Array<{ line: number; tsx: boolean; code: string; mark?: string }>)
    .filter((block) => block.mark !== 'fragment')
    .map((block) => [`guide_L${block.line}.${block.tsx ? 'tsx' : 'ts'}`, `export {};\n${block.code}\n`]));

  /** A repository file that imports an adapter's sources, importing the installed entry instead. */
  const fromPackage = (file: string, sourceImport: string, entry: string) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text).toContain(`'${sourceImport}'`);
    return text.replace(`'${sourceImport}'`, `'${entry}'`);
  };

  // A React Native app compiles the guide with React Native's own module types; `exactOptionalPropertyTypes` refused
  // the guide's `modules: { AppState }` until p19 (react-native's AppState declares `currentState: null | undefined |
  // string`, the adapter took `currentState?: string | null`).
  it("compiles the React Native guide's blocks, the sample app and the real modules' fit against the installed types (React Native's settings, exactOptionalPropertyTypes)", () => {
    const sources = {
      ...guideBlocks('docs/guides/react-native.md'),
      // Every module version the adapter's options promise to take (the repository's own check, on the sources).
      'modules.tsx': fromPackage('test/adapters/react-native/module-types.rn-check.tsx', '../../../adapters/react-native/index.js', 'game-campaign-sdk/react-native'),
      'App.tsx': readFileSync(join(ROOT, 'samples/react-native/App.tsx'), 'utf8'),
    };
    expect(sources['App.tsx']).toContain("from 'game-campaign-sdk/react-native'");
    expect(Object.keys(sources).length).toBeGreaterThan(3);
    // @react-native/typescript-config's choices (bundler resolution, the react-native condition, its skipLibCheck:
    // react-native's own declarations do not pass without it), made stricter.
    const options = { target: 'esnext', lib: ['es2022'], module: 'esnext', moduleResolution: 'bundler', customConditions: ['react-native'], jsx: 'react-jsx', skipLibCheck: true, types: [] };
    expect(compileApp('react-native-app', sources, ['@types/react'], options)).toBe('');
  }, 120_000);

  // The Cocos sample (what a Cocos developer copies) passed `wx: wechat`, a `WechatApi | undefined` read from the
  // global, which `exactOptionalPropertyTypes` refused for `wx?: WechatApi` until p19.
  it("compiles the Cocos guide's blocks, the sample component and the engine's fit against the installed types (Cocos Creator's engine types, exactOptionalPropertyTypes)", () => {
    const sources = {
      ...guideBlocks('docs/guides/cocos.md'),
      'component.ts': readFileSync(join(ROOT, 'samples/cocos/CampaignComponent.ts'), 'utf8'),
      'engine.ts': fromPackage('test/adapters/cocos/cc-types.cc-check.ts', '../../../adapters/cocos/index.js', 'game-campaign-sdk/cocos'),
    };
    expect(sources['component.ts']).toContain("from 'game-campaign-sdk/cocos'");
    // A Cocos Creator 3.8 project's tsconfig: the engine's declarations of 'cc', legacy decorators for @ccclass.
    const options = { target: 'es2022', lib: ['es2022', 'dom'], module: 'esnext', moduleResolution: 'bundler', experimentalDecorators: true, skipLibCheck: true, types: ['@cocos/creator-types/engine'] };
    expect(compileApp('cocos-app', sources, ['@cocos/creator-types'], options)).toBe('');
  }, 120_000);

  // The quick start as a studio meets it from an empty folder: docs/getting-started.md's game server (the server
  // entry on Node) and docs/guides/browser.md's bundler example (the browser entry, bundled by esbuild from the
  // installed package), each run as written but for what points them at the emulator instead of the sandbox (and a
  // free port, and the player's play time). The guide says closing the tab is handled: the session the page stopped
  // reaches the emulator through the server's relay when the page is closed, with no flush of the game's own.
  it.runIf(chromiumAvailable())('runs the quick start: the getting-started game server on Node and the browser guide\'s page, bundled, in Chromium', async () => {
    const block = (file: string, containing: string) => {
      const found = (tsBlocks(readFileSync(join(ROOT, file), 'utf8')) as Array<{ code: string }>).find((candidate) => candidate.code.includes(containing));
      expect(found, `${file}: the block with ${containing}`).toBeDefined();
      return found!.code;
    };
    const edit = (code: string, from: string, to: string) => {
      expect(code, `the quick start still holds ${from}`).toContain(from);
      return code.replace(from, to);
    };
    const emulator = await startEmulator({ port: 0, keys: { clientKey: 'ck_key:secret', serverKey: 'sk_key:secret' } });
    const { build } = await import('esbuild');
    let serverCode = block('docs/getting-started.md', "from 'game-campaign-sdk/server'");
    serverCode = edit(serverCode, "environment: 'sandbox'", 'environment: { baseUrl: process.env.EMULATOR_URL! }');
    serverCode = edit(serverCode, '.listen(8080)', ".listen(0, '127.0.0.1', function (this: import('node:net').Server) { console.log(JSON.stringify(this.address())); })");
    // The block is whole (test/docs checks it compiles without the snippet context): its login takes the browser
    // guide's token for player-1, as a studio pairing the two pages has it.
    writeFileSync(join(consumer, 'quick-server.ts'), serverCode);
    let pageCode = block('docs/guides/browser.md', "from 'game-campaign-sdk/browser'");
    pageCode = edit(pageCode, "environment: 'sandbox'", `environment: { baseUrl: ${JSON.stringify(emulator.url)} }`);
    pageCode = edit(pageCode, "gc.campaigns.get('cmp_spring_festival')", `gc.campaigns.get(${JSON.stringify(DEMO_ACTIVE_CAMPAIGN_ID)})`);
    // The player plays (a session under a second is dropped as too short), once the tracker's start-up is done (a
    // `flush()` waits for it and sends nothing here: the session is running, none queued): a page left before then
    // sends nothing at its exit (core/tracker/page-exit.ts `send`, `enabled`), and a CI machine under load once took
    // longer than the 1.5 s of play (the session never arrived).
    pageCode = edit(pageCode, '// ... the player plays;', 'await gc.tracker.flush(); await new Promise((resolve) => setTimeout(resolve, 1_500)); // ... the player plays;');
    writeFileSync(join(consumer, 'quick-page.ts'), `${pageCode}\n(window as unknown as { ready: boolean }).ready = true;\n`);
    await build({ entryPoints: [join(consumer, 'quick-server.ts')], outfile: join(consumer, 'quick-server.mjs'), format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent' });
    await build({ entryPoints: [join(consumer, 'quick-page.ts')], outdir: join(consumer, 'quick-page'), bundle: true, splitting: true, format: 'esm', platform: 'browser', target: 'es2022', absWorkingDir: consumer, logLevel: 'silent' });
    const child = spawn(process.execPath, ['quick-server.mjs'], { cwd: consumer, env: { ...process.env, CAMPAIGN_SERVER_KEY: 'sk_key:secret', EMULATOR_URL: emulator.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const browser = await launchChromium();
    try {
      const { port } = JSON.parse(await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`the game server exited with ${code}: ${stderr}`)));
      })) as { port: number };
      const origin = `http://127.0.0.1:${port}`;
      const page = await browser.context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(String(error)));
      page.on('console', (message) => message.type() === 'warning' && problems.push(message.text()));
      // The game's page and its bundle, served on the game server's origin (the relay at /campaign is the server's own).
      // A page Playwright fulfils has no address, so Chromium's Local Network Access takes it for a public one and
      // asks before it reaches the emulator on loopback, as a page a loopback server sent would not: granted.
      await browser.context.grantPermissions(['local-network-access']);
      await page.route(`${origin}/`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><script type="module" src="/quick-page/quick-page.js"></script>' }));
      await page.route(`${origin}/quick-page/*`, (route) => route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(consumer, 'quick-page', new URL(route.request().url()).pathname.split('/').pop()!)) }));
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true, null, { timeout: 30_000 });
      // Closed at once, long before the tracker's 30 s interval flush: only the page's exit can send the session.
      // Playwright's routes off first: while a page has any, every request it makes is paused for Playwright to let
      // through, and the exit's keepalive request, made as the page closes, could wait on a page Playwright had
      // already let go (the session then never arrived in a loaded CI run). The page and its bundle are loaded.
      await page.unrouteAll({ behavior: 'wait' });
      await page.close({ runBeforeUnload: true });
      await expect.poll(() => emulator.state().sessions.map((session) => [session.userId, session.campaignId]), { timeout: 30_000 }).toEqual([['player-1', DEMO_ACTIVE_CAMPAIGN_ID]]);
      expect(problems).toEqual([]);

      // The guide's `<script>` page, as written (its bundle at the address its `src` names, from the installed
      // package), against the same server: a studio without a bundler pairs these two. Until p25 the page sent no
      // authentication, which getting-started's relay asks for: every batch was refused (RelayAuthError) and stayed
      // queued, and nothing reached the service.
      const html = /```html\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs/guides/browser.md'), 'utf8'))?.[1];
      expect(html, 'docs/guides/browser.md: the <script> example').toContain('GameCampaign.createGameCampaign(');
      const scriptPage = await browser.context.newPage();
      scriptPage.on('pageerror', (error) => problems.push(String(error)));
      scriptPage.on('console', (message) => message.type() === 'warning' && problems.push(message.text()));
      await scriptPage.route(`${origin}/script/`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html>${html!}` }));
      await scriptPage.route(`${origin}/script/node_modules/game-campaign-sdk/dist/*`, (route) => route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(consumer, 'node_modules/game-campaign-sdk/dist', new URL(route.request().url()).pathname.split('/').pop()!)) }));
      await scriptPage.goto(`${origin}/script/`);
      await scriptPage.waitForFunction(() => typeof (window as unknown as { GameCampaign?: unknown }).GameCampaign === 'object', null, { timeout: 30_000 });
      // The player plays (a session under a second is dropped as too short), then presses Stop: the session is sent.
      await scriptPage.waitForTimeout(1_500);
      await scriptPage.click('#stop');
      await expect.poll(() => emulator.state().sessions.map((session) => session.userId), { timeout: 30_000 }).toEqual(['player-1', 'player-1']);
      expect(problems).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await browser.close();
      await emulator.close();
    }
  }, 120_000);

  it('starts the emulator with its bin: one JSON line, then it serves the Client API', async () => {
    const child = spawn(join(consumer, 'node_modules/.bin/game-campaign-emulator'), ['--port', '0', '--json'], { cwd: consumer, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`the bin exited with ${code} before printing`)));
      });
      const { url, clientKey } = JSON.parse(line) as { url: string; clientKey: string };
      const response = await fetch(`${url}/v1/client/creators/PIXEL`, { headers: { authorization: `Bearer ${clientKey}` } });
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0); // the CLI closes the emulator on SIGTERM and exits 0
  });
});
