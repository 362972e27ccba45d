#!/usr/bin/env node
// Bundle sizes as the wire carries them (DESIGN section 11): a consumer file that imports from the BUILT package
// (dist/, through the exports map of package.json, as `game-campaign-sdk/...`), bundled the way a game's
// project bundles it, by the project's own esbuild (ESM, code splitting, minified, target ES2020) and by the
// project's rollup (node-resolve, commonjs, terser). Each file a game downloads before it can call the SDK (the
// entry chunk and the chunks it imports statically, never a chunk only reached by `import()`) is gzipped on its
// own, as a server sends it, and those figures are summed; the larger sum of the two bundlers counts. The IIFE
// is one file, gzipped as built.
// `npm run size` runs this file: it prints the table, file by file, and exits 1 when a budget is exceeded.
// Options: `--only <label part>` measures the matching rows only; `--budget <bytes>` overrides their budget
// (the test that proves an exceeded budget fails the check uses both).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { IIFE } from './entries.mjs';
import { METRO_ROW, measureMetroSize } from './metro-size.mjs';
import { KB, START_UP_CODE } from './size-budgets.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const PACKAGE = 'game-campaign-sdk';
export { START_UP_CODE };
/** The oldest syntax a game's bundle is asked for (DESIGN section 11: old WebViews). */
export const TARGET = 'es2020';

/**
 * The budget rows, one line each: what a game imports (`import`: names per module specifier), or a built
 * `file`. A row whose entry is not in package.json's exports yet is listed as skipped, never measured against
 * something else. Budgets: DESIGN section 11's, on every row (with {@link START_UP_CODE} where the tracker is).
 */
export const SIZE_ROWS = [
  { label: 'client reads (CampaignClient)', import: { [PACKAGE]: '{ CampaignClient }' }, budget: 4 * KB },
  { label: 'tracker (PlaytimeTracker)', import: { [PACKAGE]: '{ PlaytimeTracker }' } },
  { label: 'reads + tracker', import: { [PACKAGE]: '{ CampaignClient, PlaytimeTracker }' } },
  { label: 'core facade (createGameCampaign)', import: { [PACKAGE]: '{ createGameCampaign }' } },
  { label: `${PACKAGE} (all of it)`, import: { [PACKAGE]: '*' } },
  { label: 'tracker + browser adapter', import: { [PACKAGE]: '{ PlaytimeTracker }', [`${PACKAGE}/browser`]: '{ createBrowserPlatform }' }, budget: 8.5 * KB + START_UP_CODE },
  { label: `${PACKAGE}/browser (all of it)`, import: { [`${PACKAGE}/browser`]: '*' }, budget: 12 * KB + START_UP_CODE },
  { label: 'tracker + Cocos adapter', import: { [PACKAGE]: '{ PlaytimeTracker }', [`${PACKAGE}/cocos`]: '{ createCocosPlatform }' }, budget: 9 * KB + START_UP_CODE },
  { label: 'tracker + React Native adapter', import: { [PACKAGE]: '{ PlaytimeTracker }', [`${PACKAGE}/react-native`]: '{ createReactNativePlatform }' }, budget: 9 * KB + START_UP_CODE },
  { label: `IIFE ${IIFE.file}`, file: IIFE.file, budget: 12 * KB + START_UP_CODE },
];

/** The package subpath of a bare specifier (`game-campaign-sdk/browser` -> `./browser`). */
function subpathOf(specifier) {
  return `.${specifier.slice(PACKAGE.length)}`;
}

/** Why a row cannot be measured yet, or undefined when it can. */
export function skipReason(row, exportsMap = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports) {
  if (row.file || row.code !== undefined) return undefined;
  const missing = Object.keys(row.import).map(subpathOf).filter((subpath) => !(subpath in exportsMap));
  return missing.length ? `entry ${missing.join(', ')} is not in package.json exports yet` : undefined;
}

/**
 * A consumer file importing the row's names, as a game would, and using them so nothing is shaken off. `*` (the
 * whole entry) is written as a named import of every export (`names[specifier]`), not `import * as`: logging a
 * namespace object makes esbuild build it with a getter per export, bytes no game's own code would cost.
 */
function consumerCode(row, names = {}) {
  if (row.code !== undefined) return row.code;
  return Object.entries(row.import)
    .map(([from, imported]) => {
      const list = imported === '*' ? `{ ${names[from].join(', ')} }` : imported;
      return `import ${list} from ${JSON.stringify(from)};\nconsole.log(${list.replace(/[{}]/g, '').trim()});\n`;
    })
    .join('');
}

/** The export names of a built entry (`game-campaign-sdk/browser`), read by importing its ESM file from dist. */
async function exportNames(specifier) {
  const exportsMap = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports;
  const target = exportsMap[subpathOf(specifier)].import.default;
  return Object.keys(await import(pathToFileURL(join(ROOT, target)).href)).sort();
}

/**
 * A folder where `game-campaign-sdk` resolves to this package (a symlink in node_modules), so both bundlers
 * go through its exports map to dist/ exactly as in a game's project.
 */
function consumerFolder() {
  const folder = mkdtempSync(join(tmpdir(), 'gc-size-'));
  mkdirSync(join(folder, 'node_modules'));
  symlinkSync(ROOT, join(folder, 'node_modules', PACKAGE), 'dir');
  return folder;
}

/** gzip of one file as a server sends a static file (level 9, the most a server would spend on a file it caches). */
export function gzipBytes(code) {
  return gzipSync(code, { level: 9 }).length;
}

/**
 * Splits a bundler's output files into what loads before the game can call the SDK (`eager`: the entry and,
 * transitively, what it imports statically) and what loads later (`lazy`), each file gzipped alone.
 * @param files - `{ name, code, imports }` per output file, `imports` being its static imports' names
 */
function eagerAndLazy(files, entryName) {
  const byName = new Map(files.map((file) => [file.name, file]));
  const eager = new Set();
  const visit = (name) => {
    if (eager.has(name)) return;
    eager.add(name);
    for (const imported of byName.get(name).imports) visit(imported);
  };
  visit(entryName);
  const sized = (file) => ({ file: file.name, bytes: gzipBytes(file.code), code: file.code });
  return { eager: files.filter((file) => eager.has(file.name)).map(sized), lazy: files.filter((file) => !eager.has(file.name)).map(sized) };
}

/** The consumer file bundled by rollup (+ node-resolve, commonjs, terser), ESM with its chunks. */
async function rollupFiles(file) {
  const bundle = await rollup({ input: file, plugins: [nodeResolve({ browser: true }), commonjs()], onwarn: () => {} });
  try {
    const { output } = await bundle.generate({ format: 'es', plugins: [terser({ ecma: 2020, module: true, compress: { passes: 2 } })] });
    const chunks = output.filter((chunk) => chunk.type === 'chunk');
    return eagerAndLazy(
      chunks.map((chunk) => ({ name: chunk.fileName, code: chunk.code, imports: chunk.imports })),
      chunks.find((chunk) => chunk.isEntry).fileName,
    );
  } finally {
    await bundle.close();
  }
}

/** The consumer file bundled by the project's esbuild: ESM, code splitting, minified, at {@link TARGET}. */
async function esbuildFiles(file, folder) {
  const outdir = join(folder, 'esbuild-out');
  const result = await build({
    entryPoints: [file],
    absWorkingDir: folder,
    // The package's files by their path in the consumer folder (node_modules/game-campaign-sdk/...), not where the
    // symlink leads: esbuild's chunk names hash the paths, and the entry file names its chunks, so without this the
    // figures moved a few bytes with the folder the repository is cloned to.
    preserveSymlinks: true,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: TARGET,
    minify: true,
    write: false,
    metafile: true,
    outdir,
    logLevel: 'error',
  });
  const outputs = Object.fromEntries(Object.entries(result.metafile.outputs).map(([path, output]) => [basename(path), output]));
  const files = result.outputFiles.map((output) => {
    const name = basename(output.path);
    return { name, code: output.text, imports: outputs[name].imports.filter((imported) => imported.kind === 'import-statement').map((imported) => basename(imported.path)) };
  });
  return eagerAndLazy(files, basename(file).replace(/\.mjs$/, '.js'));
}

/** The sum of files' gzip bytes. */
const total = (files) => files.reduce((sum, file) => sum + file.bytes, 0);

/**
 * Measures every row whose entry exists (needs `npm run build` first). `only` keeps the rows whose label
 * contains it; `budget` overrides their budget; `rows` replaces {@link SIZE_ROWS}.
 * @returns one row per measured line: `bytes` (the larger sum), `budget` when it has one, `tool` that gave
 *   `bytes`, `byTool` (each bundler's sum), and `files` (per bundler, the eager files and the lazy ones, each
 *   with its gzip bytes and code)
 */
export async function measureSizes({ only, budget, rows: allRows = SIZE_ROWS } = {}) {
  const rows = allRows.filter((row) => (only === undefined || row.label.includes(only)) && skipReason(row) === undefined);
  const folder = consumerFolder();
  const measured = [];
  try {
    for (const [index, row] of rows.entries()) {
      const limit = budget ?? row.budget;
      const withBudget = limit === undefined ? {} : { budget: limit };
      if (row.file) {
        const code = readFileSync(join(ROOT, row.file), 'utf8');
        const files = { file: { eager: [{ file: basename(row.file), bytes: gzipBytes(code), code }], lazy: [] } };
        measured.push({ label: row.label, bytes: total(files.file.eager), ...withBudget, tool: 'file', files });
        continue;
      }
      const file = join(folder, `consumer-${index}.mjs`);
      const whole = Object.keys(row.import ?? {}).filter((from) => row.import[from] === '*');
      const names = Object.fromEntries(await Promise.all(whole.map(async (from) => [from, await exportNames(from)])));
      writeFileSync(file, consumerCode(row, names));
      const files = { rollup: await rollupFiles(file), esbuild: await esbuildFiles(file, folder) };
      const byTool = { rollup: total(files.rollup.eager), esbuild: total(files.esbuild.eager) };
      const tool = byTool.rollup >= byTool.esbuild ? 'rollup' : 'esbuild';
      measured.push({ label: row.label, bytes: byTool[tool], ...withBudget, tool, byTool, files });
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return measured;
}

/** A file list as printed: `name 1,234` per file. */
const listed = (files) => files.map((file) => `${file.file} ${file.bytes.toLocaleString('en-US')}`).join(' + ');

/** The React Native row (scripts/metro-size.mjs): the SDK's cost in a Metro release app; true when over budget. */
async function printMetroRow(budget = METRO_ROW.budget) {
  const { label, gzip, js, hermes, picker } = await measureMetroSize();
  const over = gzip > budget;
  const against = ` / ${(budget / KB).toFixed(2)} KB${over ? '  OVER BUDGET' : ''}`;
  console.log(`${label.padEnd(40)} ${(gzip / KB).toFixed(2).padStart(6)} KB${against.padEnd(26)} (metro; DESIGN's ${METRO_ROW.target / KB} KB + the start-up code)`);
  console.log(`    metro    the app with the SDK minus without: ${js.toLocaleString('en-US')} bytes minified, ${gzip.toLocaleString('en-US')} gzip, ${hermes.toLocaleString('en-US')} Hermes bytecode`);
  console.log(`    metro    + the creator picker (its own import, not budgeted): ${picker.js.toLocaleString('en-US')} bytes minified, ${picker.gzip.toLocaleString('en-US')} gzip, ${picker.hermes.toLocaleString('en-US')} Hermes bytecode`);
  return over;
}

async function main() {
  const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  const only = option('--only');
  const budget = option('--budget') === undefined ? undefined : Number(option('--budget'));
  const rows = await measureSizes({ only, budget });
  let failed = false;
  for (const { label, bytes, budget: limit, tool, files } of rows) {
    const over = limit !== undefined && bytes > limit;
    failed ||= over;
    const against = limit === undefined ? '' : ` / ${(limit / KB).toFixed(2)} KB${over ? '  OVER BUDGET' : ''}`;
    console.log(`${label.padEnd(40)} ${(bytes / KB).toFixed(2).padStart(6)} KB${against.padEnd(26)} (${tool})`);
    for (const [by, { eager, lazy }] of Object.entries(files)) {
      console.log(`    ${by.padEnd(8)} eager ${listed(eager)} bytes${lazy.length ? `; lazy ${listed(lazy)}` : ''}`);
    }
  }
  for (const row of SIZE_ROWS.filter((r) => only === undefined || r.label.includes(only))) {
    const reason = skipReason(row);
    if (reason) console.log(`${row.label.padEnd(44)} skipped: ${reason}`);
  }
  if (only === undefined || METRO_ROW.label.includes(only)) failed = (await printMetroRow(budget)) || failed;
  console.log(`gzip level 9 per file; esbuild ${(await import('esbuild')).version} (ESM, splitting, minify, target ${TARGET}); rollup ${(await import('rollup')).VERSION} + terser`);
  if (failed) {
    console.error('size: over budget (DESIGN section 11)');
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
