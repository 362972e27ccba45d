// The size check `npm test` ends with (scripts/measure-sizes.mjs): it measures from the built dist/ as the wire
// carries it (each file a game loads at start gzipped alone, summed; esbuild at ES2020 with code splitting, and
// rollup) and fails over a budget. Runs after the build (`npm test` builds first).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, transform } from 'esbuild';
import { promisify } from 'node:util';
import { Parser } from 'acorn';
import { beforeAll, describe, expect, it } from 'vitest';
import { IIFE } from '../../scripts/entries.mjs';
import { compactAsyncCalls, lowerPrivateNames } from '../../scripts/lower-private.mjs';
import { gzipBytes, measureSizes, skipReason, SIZE_ROWS, type MeasuredSize, type SizeRow } from '../../scripts/measure-sizes.mjs';

const ROOT = join(import.meta.dirname, '../..');
const run = promisify(execFile);

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
});

/** Runs the size check, resolving with its exit code and output whatever the code. */
async function sizeCheck(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/measure-sizes.mjs', ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

// Each measured row bundles twice (esbuild, rollup): minutes on a busy 2-core machine, not the default 30 s.
const MEASURING = { timeout: 300_000 };

describe('npm run size', MEASURING, () => {
  it('fails when a budget is exceeded (the client reads against a 100-byte budget)', async () => {
    const result = await sizeCheck(['--only', 'client reads', '--budget', '100']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/client reads \(CampaignClient\) .*OVER BUDGET/);
    expect(result.stderr).toContain('size: over budget');
  });

  it('passes when the budget holds', async () => {
    const result = await sizeCheck(['--only', 'client reads', '--budget', String(64 * 1024)]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('OVER BUDGET');
  });

  it('measures a consumer of dist with rollup and esbuild and keeps the larger figure', async () => {
    const [row] = await measureSizes({ only: 'client reads' });
    expect(row).toMatchObject({ label: 'client reads (CampaignClient)', budget: 4096 });
    const { rollup, esbuild } = row!.byTool!;
    expect(rollup).toBeGreaterThan(1000);
    expect(esbuild).toBeGreaterThan(1000);
    expect(row!.bytes).toBe(Math.max(rollup, esbuild));
    expect(row!.tool).toBe(row!.bytes === rollup ? 'rollup' : 'esbuild');
  });

  it('bundles a row that imports from two entries as one consumer (how tracker + adapter rows are measured)', async () => {
    const rows: SizeRow[] = [
      { label: 'tracker', import: { 'game-campaign-sdk': '{ PlaytimeTracker }' } },
      { label: 'tracker + memory platform', import: { 'game-campaign-sdk': '{ PlaytimeTracker }', 'game-campaign-sdk/testing': '{ createMemoryPlatform }' } },
    ];
    const [tracker, both] = await measureSizes({ rows });
    expect(both!.bytes).toBeGreaterThan(tracker!.bytes + 500);
  });

  it('counts what loads before the game can call the SDK: a static import, never a lazily imported chunk (both bundlers)', async () => {
    const base = "import { PlaytimeTracker } from 'game-campaign-sdk';\nconsole.log(PlaytimeTracker);\n";
    const rows: SizeRow[] = [
      { label: 'base', code: base },
      { label: 'lazy', code: `${base}console.log(() => import('game-campaign-sdk/testing'));\n` },
      { label: 'static', code: `${base}import * as testing from 'game-campaign-sdk/testing';\nconsole.log(testing);\n` },
    ];
    const [plain, lazy, eager] = await measureSizes({ rows });
    for (const tool of ['rollup', 'esbuild'] as const) {
      // The testing entry (zod's response schemas, the memory platform, @noble/hashes) is > 10 KB: counted when
      // imported statically; imported lazily, only the chunk boundary (code the two share, split apart) is.
      expect(eager!.byTool![tool]).toBeGreaterThan(plain!.byTool![tool] + 5000);
      expect(lazy!.byTool![tool]).toBeLessThan(plain!.byTool![tool] + 1000);
    }
  });

  it('gzips each file a game loads at start on its own and sums them (a shared chunk is a file of its own on the wire)', async () => {
    // A lazily imported entry that shares modules with the eager code: esbuild splits the shared code into a chunk
    // the entry imports statically, a second eager file.
    const code = "import { PlaytimeTracker } from 'game-campaign-sdk';\nconsole.log(PlaytimeTracker, () => import('game-campaign-sdk/testing'));\n";
    const [row] = await measureSizes({ rows: [{ label: 'two eager files', code }] });
    const { eager } = row!.files!['esbuild']!;
    expect(eager).toHaveLength(2);
    for (const file of eager) expect(file.bytes).toBe(gzipBytes(file.code));
    expect(row!.byTool!.esbuild).toBe(eager[0]!.bytes + eager[1]!.bytes);
    // Not what gzipping them as one stream would say (the old measure), which is smaller.
    expect(row!.byTool!.esbuild).toBeGreaterThan(gzipBytes(eager.map((file) => file.code).join('\n')));
  });

  it('lists an entry that does not exist yet as skipped, never with a figure', () => {
    const browser = SIZE_ROWS.find((row) => row.label === 'tracker + browser adapter')!;
    expect(skipReason(browser, { '.': {} })).toBe('entry ./browser is not in package.json exports yet');
    expect(skipReason(browser, { '.': {}, './browser': {} })).toBeUndefined();
  });
});

describe('every size row (DESIGN section 11)', () => {
  let rows: MeasuredSize[] = [];
  beforeAll(async () => {
    rows = await measureSizes();
  }, 300_000);

  it('measures every row, with both bundlers where it is bundled', () => {
    expect(rows.map((row) => row.label)).toEqual(SIZE_ROWS.map((row) => row.label));
    for (const row of rows) expect(Object.keys(row.files!).sort(), row.label).toEqual(row.tool === 'file' ? ['file'] : ['esbuild', 'rollup']);
  });

  it('is one file a game loads before it can call the SDK, whichever bundler (the lazy chunks share nothing with it)', () => {
    for (const row of rows) for (const [tool, { eager }] of Object.entries(row.files!)) expect(eager.map((file) => file.file), `${row.label}, ${tool}`).toHaveLength(1);
  });

  it('counts, per bundler, the gzip bytes of each eager file alone, and the larger sum against the budget', () => {
    for (const row of rows) {
      const sums = Object.fromEntries(
        Object.entries(row.files!).map(([tool, { eager }]) => {
          for (const file of eager) expect(file.bytes, `${row.label}, ${tool}, ${file.file}`).toBe(gzipBytes(file.code));
          return [tool, eager.reduce((sum, file) => sum + file.bytes, 0)];
        }),
      );
      expect(row.bytes, row.label).toBe(Math.max(...Object.values(sums)));
      if (row.budget !== undefined) expect(row.bytes, `${row.label}: ${row.bytes} bytes over its budget of ${row.budget}`).toBeLessThanOrEqual(row.budget);
    }
  });

  it('holds the budgets DESIGN section 11 sets, on every row', () => {
    const kb = (bytes: number) => Math.round((bytes / 1024) * 1000) / 1000;
    const budgets = Object.fromEntries(rows.filter((row) => row.budget !== undefined).map((row) => [row.label, kb(row.budget!)]));
    expect(budgets).toEqual({
      // + 2.7 KB where the tracker is: the code every tracker start needs, loaded with the entry (DESIGN section 11).
      'client reads (CampaignClient)': 4,
      'tracker + browser adapter': 11.2,
      'game-campaign-sdk/browser (all of it)': 14.7,
      'tracker + Cocos adapter': 11.7,
      'tracker + React Native adapter': 11.7,
      'IIFE dist/game-campaign.iife.js': 14.7,
    });
  });

  it("is what docs/performance.md's size table says, row by row (the table kept true in the commit that changes a size)", () => {
    const doc = readFileSync(join(ROOT, 'docs/performance.md'), 'utf8');
    const bytes = (cell: string | undefined) => (cell === undefined || cell.trim() === '-' ? undefined : Number(/^[\d,]+/.exec(cell.trim())?.[0].replace(/,/g, '')));
    const table = Object.fromEntries(
      doc
        .split('\n')
        .map((line) => line.split('|').map((cell) => cell.trim()))
        .filter((cells) => rows.some((row) => row.label === cells[1]))
        .map(([, label, , esbuild, rollup, counted]) => [label, { esbuild: bytes(esbuild), rollup: bytes(rollup), counted: bytes(counted) }]),
    );
    const measured = Object.fromEntries(rows.map((row) => [row.label, { esbuild: row.byTool?.esbuild, rollup: row.byTool?.rollup, counted: row.bytes }]));
    expect(table).toEqual(measured);
  });
});

describe('the IIFE', () => {
  it('parses as ES2020 and holds no #private member (lowered to mangled properties, not WeakMap helpers)', () => {
    const code = readFileSync(join(ROOT, IIFE.file), 'utf8');
    expect(() => Parser.parse(code, { ecmaVersion: 2020, sourceType: 'script' })).not.toThrow();
    expect(code).not.toMatch(/__privateGet|__privateAdd|__private_/);
  });

  it('lowers #name to a property, and `#name in obj` to a string key', () => {
    const code = 'class A { #count = 1; #bump() { return ++this.#count; } static has(o) { return #count in o; } }';
    expect(lowerPrivateNames(code)).toBe('class A { _count = 1; _bump() { return ++this._count; } static has(o) { return "_count" in o; } }');
  });

  it('refuses to lower #name where the code already uses the property it would become', () => {
    expect(() => lowerPrivateNames('class A { #count = 1; _count = 2; }')).toThrow('lower-private: _count already used');
    expect(() => lowerPrivateNames('export class A { #n = 1; }', 'module')).not.toThrow();
  });

  it("compacts esbuild's __async calls and helper: the generator first, `this` and `arguments` only where it uses them, one step for next and throw, and runs the same", async () => {
    const source = `const o = {
  k: 5,
  plain(x) { return (async () => x + 1)(); },
  self() { return (async function () { await null; return this.k; }).call(this); },
  nested() { return (async function () { return [function () { 'use strict'; return this; }.call(7), (() => this.k)()]; }).call(this); },
  args() { return (async function () { return arguments.length; })(1, 2, 3); },
  unused() { return (async function () { return 1; }).call(this); },
  caught() { return (async () => { try { await Promise.reject(new Error('refused')); } catch (error) { return error.message + (await 1); } })(); },
  thrown() { return (async () => { await null; throw new Error('thrown'); })().catch((error) => error.message); },
  first() { return (async () => { throw new Error('at once'); })().catch((error) => error.message); },
};
module.exports = o;`;
    const lowered = (await transform(source, { supported: { 'async-await': false }, format: 'cjs' })).code;
    const compact = compactAsyncCalls(lowered, 'script');
    // Every call now starts with its generator; `null, null` nowhere; `this` kept for the methods that read it.
    expect(lowered).toMatch(/__async\(null, null, function\*/);
    expect(compact).not.toMatch(/__async\((null|this), /);
    expect(lowered.match(/__async\(this, null, /g)).toHaveLength(3);
    expect(compact.match(/\}, this\)/g)).toHaveLength(2); // `self` and `nested` read `this`; `unused` does not
    expect(compact.match(/\}, this, arguments\)/g)).toHaveLength(1);
    const run = (code: string) => {
      const module = { exports: {} as Record<string, (...args: unknown[]) => Promise<unknown>> };
      new Function('module', 'exports', code)(module, module.exports);
      const o = module.exports;
      return Promise.all([o['plain']!(1), o['self']!(), o['nested']!(), o['args']!(), o['unused']!(), o['caught']!(), o['thrown']!(), o['first']!()]);
    };
    expect(await run(compact)).toEqual(await run(lowered));
    expect(await run(compact)).toEqual([2, 5, [7, 5], 3, 1, 'refused1', 'thrown', 'at once']);
    // The helper itself: one `step` resuming by `next` or `throw`, instead of esbuild's two callbacks.
    expect(compact).toContain('var x = generator[key](value);');
    expect(compact).not.toContain('fulfilled');
    expect(() => compactAsyncCalls('var __async = (a, b, c) => {}; __async(null, null, function* () {});')).toThrow("esbuild's __async helper changed");
  });
});

describe('the built modules of dist', () => {
  it('parse as ES2020 (no class fields, no #private): a game bundling them at ES2020 has nothing to lower', () => {
    for (const entry of ['browser', 'cocos', 'react-native', 'index']) {
      const code = readFileSync(join(ROOT, `dist/${entry}.js`), 'utf8');
      expect(() => Parser.parse(code, { ecmaVersion: 2020, sourceType: 'module' }), entry).not.toThrow();
    }
    for (const module of ['core/tracker/tracker.js', 'core/webview/launcher.js', 'core/http/errors.js', 'adapters/shared/errors.js', 'adapters/browser/storage.js']) {
      const code = readFileSync(join(ROOT, 'dist/modules', module), 'utf8');
      expect(() => Parser.parse(code, { ecmaVersion: 2020, sourceType: 'module' }), module).not.toThrow();
    }
  });
});

describe('game-client bundles', () => {
  /** The node_modules packages whose code a consumer bundle of the built package carries. */
  async function bundledPackages(code: string): Promise<string[]> {
    const folder = mkdtempSync(join(tmpdir(), 'gc-inputs-'));
    try {
      mkdirSync(join(folder, 'node_modules'));
      symlinkSync(ROOT, join(folder, 'node_modules', 'game-campaign-sdk'), 'dir');
      writeFileSync(join(folder, 'consumer.mjs'), code);
      const result = await build({ entryPoints: [join(folder, 'consumer.mjs')], bundle: true, format: 'esm', write: false, metafile: true, logLevel: 'silent', outdir: folder });
      // Files that put bytes in the bundle: esbuild also lists files it parsed and then shook off entirely (a
      // `sideEffects: false` module reached by an import it ignores), which the game does not get.
      const inputs = Object.values(result.metafile.outputs)
        .flatMap((output) => Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path))
        .filter((path) => path.includes('node_modules/'));
      return [...new Set(inputs.map((path) => path.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1')))].sort();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  it('the main entry (reads, tracker, facade) carries no zod, eventemitter3 or @noble/hashes: only mitt', async () => {
    const code = "import * as sdk from 'game-campaign-sdk';\nconsole.log(sdk);\n";
    expect(await bundledPackages(code)).toEqual(['mitt']);
  });

  it('createMemoryPlatform and validateResponse come from game-campaign-sdk/testing, not the main entry', async () => {
    const main = await import(join(ROOT, 'dist/index.js'));
    const testing = await import(join(ROOT, 'dist/testing.js'));
    expect(main).not.toHaveProperty('createMemoryPlatform');
    expect(main).not.toHaveProperty('validateResponse');
    expect(typeof testing.createMemoryPlatform).toBe('function');
    expect(typeof testing.createMemoryStorage).toBe('function');
    expect(typeof testing.validateResponse).toBe('function');
    expect(testing.validateResponse({ data: { ott: 'x', expiresIn: 'soon' } }, 'OneTimeToken', 'item')).toEqual([{ path: 'data.expiresIn', message: 'must be a number' }]);
  });

  /** The files whose code a consumer loads at once (entry chunk and its static imports) and later (`import()`), bundled by esbuild with code splitting. */
  async function loadedFiles(code: string): Promise<{ atOnce: string[]; later: string[]; laterCode: string; allCode: string }> {
    const folder = mkdtempSync(join(tmpdir(), 'gc-split-'));
    try {
      mkdirSync(join(folder, 'node_modules'));
      symlinkSync(ROOT, join(folder, 'node_modules', 'game-campaign-sdk'), 'dir');
      writeFileSync(join(folder, 'consumer.mjs'), code);
      const result = await build({ entryPoints: [join(folder, 'consumer.mjs')], bundle: true, splitting: true, format: 'esm', write: false, metafile: true, logLevel: 'silent', outdir: join(folder, 'out') });
      const outputs = result.metafile.outputs;
      const atOnce = new Set<string>();
      const visit = (path: string) => {
        if (atOnce.has(path)) return;
        atOnce.add(path);
        for (const imported of outputs[path]!.imports) if (imported.kind === 'import-statement') visit(imported.path);
      };
      visit(Object.keys(outputs).find((path) => outputs[path]!.entryPoint?.endsWith('consumer.mjs'))!);
      const files = (paths: string[]) => [...new Set(paths.flatMap((path) => Object.entries(outputs[path]!.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([input]) => input.replace(/^.*node_modules\/(?!game-campaign-sdk)/, '').replace(/^.*dist\/modules\//, ''))))].sort();
      const laterPaths = Object.keys(outputs).filter((path) => !atOnce.has(path));
      const laterCode = result.outputFiles.filter((file) => laterPaths.some((path) => file.path.endsWith(path.replace(/^.*\//, '/')))).map((file) => file.text).join('\n');
      return { atOnce: files([...atOnce]), later: files(laterPaths), laterCode, allCode: result.outputFiles.map((file) => file.text).join('\n') };
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  it.each([
    ['browser', 'createBrowserPlatform'],
    ['cocos', 'createCocosPlatform'],
    ['react-native', 'createReactNativePlatform'],
  ])('game-campaign-sdk/%s with the tracker loads what every tracker start needs at once (the flusher, the start-up housekeeping): no second request', async (entry, name) => {
    const { atOnce, later } = await loadedFiles(`import { PlaytimeTracker } from 'game-campaign-sdk';\nimport { ${name} } from 'game-campaign-sdk/${entry}';\nconsole.log(PlaytimeTracker, ${name});\n`);
    for (const file of ['core/tracker/flusher.js', 'core/tracker/housekeeping.js', 'core/tracker/tracker.js']) {
      expect(atOnce, file).toContain(file);
      expect(later, file).not.toContain(file);
    }
  });

  it.each([
    ['browser', 'createBrowserPlatform', ['vendor/@noble/hashes/sha2.js', 'adapters/browser/webview.js', 'adapters/browser/lease-lock.js']],
    ['cocos', 'createCocosPlatform', ['vendor/@noble/hashes/sha2.js', 'adapters/cocos/xhr-request.js', 'adapters/cocos/wechat.js', 'adapters/cocos/web-view.js', 'adapters/shared/web-view-handle.js']],
  ])('game-campaign-sdk/%s loads SHA-256 (and its other on-demand code) only when needed, through import()', async (entry, name, onDemand) => {
    const { atOnce, later, laterCode } = await loadedFiles(`import { ${name} } from 'game-campaign-sdk/${entry}';\nconsole.log(${name});\n`);
    for (const file of onDemand) {
      expect(atOnce, file).not.toContain(file);
      expect(later, file).toContain(file);
    }
    expect(atOnce.some((file) => file.includes('@noble/'))).toBe(false);
    // @noble/hashes' sha256, as dist/ carries it: lowered to ES2020, so the game's bundler adds no helper chunk.
    expect(later).toContain('vendor/@noble/hashes/sha2.js');
    expect(laterCode).toContain('getUint32');
  });

  it.each([
    ['browser', 'createGameCampaign', true],
    ['cocos', 'createGameCampaign', true],
    ['', 'PlaytimeTracker', false],
  ])('game-campaign-sdk/%s %s carries the page exit: %s (the browser and Cocos lifecycles supply it, as Lifecycle.pageExit; the tracker alone does not reach it)', async (entry, name, carried) => {
    // A Cocos web build is a page: its lifecycle passes the exit there (React Native's entry: test/foundation/metro-size.test.ts).
    const { atOnce, later, allCode } = await loadedFiles(`import { ${name} } from 'game-campaign-sdk${entry && `/${entry}`}';\nconsole.log(${name});\n`);
    expect([...atOnce, ...later].includes('core/tracker/page-exit.js')).toBe(carried);
    // The names of the exit's own state (not minified here): the sessions held for the exit request, the relay headers kept for it.
    for (const name of ['heldBytes', 'lastHeaders']) expect(allCode.includes(name), name).toBe(carried);
  });

  it('game-campaign-sdk/react-native is one file of its own (Metro keeps all of it anyway): no other SDK module or package but mitt (no @noble/hashes), no import()', () => {
    // Metro wraps every file as a module and puts every import() in the app: one file costs less (docs/decisions.md,
    // "React Native entry: measured as Metro bundles it"). React Native hashes with the compact SHA-256.
    for (const file of ['dist/react-native.js', 'dist/react-native.cjs']) {
      const code = readFileSync(join(ROOT, file), 'utf8');
      const imported = [...code.matchAll(/(?:^import .* from |require\()["']([^"']+)["']/gm)].map((match) => match[1]);
      expect(imported, file).toEqual(['mitt']);
      expect(code, file).not.toMatch(/\bimport\(/);
      expect(code, file).toContain('getUint32'); // the compact SHA-256, inside
    }
    expect(existsSync(join(ROOT, 'dist/modules/adapters/react-native'))).toBe(false);
  });
});
