// Min+gzip bytes of what a game's bundler would ship for each client-facing entry (its dependencies bundled,
// lazily imported chunks excluded), of every entry as built, and of the IIFE bundle: the one measurement
// behind the size budgets of `npm test` (scripts/size.mjs) and the size rows of `npm run bench`.
// Run from the package root, after the build (rows for files not built yet are left out).
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';
import { ENTRIES, IIFE } from './entries.mjs';

const KB = 1024;
/**
 * What a game client imports, bundled as its bundler would, with the budget DESIGN section 11 sets for it.
 * Its other budget (12 KB) is for the browser entry with everything a game client uses (reads, tracker,
 * launcher, adapter); that entry comes with the adapters, and its line here with it. Until then the reads
 * plus the tracker are reported as the part of it that exists.
 */
const CLIENT_BUNDLES = [
  { label: 'client reads (CampaignClient)', code: `export { CampaignClient } from './core/index.ts';`, budget: 7 * KB },
  { label: 'game client so far (reads + tracker)', code: `export { CampaignClient, PlaytimeTracker } from './core/index.ts';` },
  ...ENTRIES.filter((e) => e.client).map((e) => ({ label: `entry ${e.subpath} (all of it)`, code: `export * from './${e.source}';` })),
];

/** Min+gzip bytes of `code` bundled from the sources with rollup + terser, as a game's bundler would. */
async function bundledSize(code) {
  const bundle = await rollup({
    input: 'virtual-entry',
    // Our package.json says `sideEffects: false`, so a game's bundler drops every module of ours it does not use.
    treeshake: { moduleSideEffects: (id) => id.includes('/node_modules/') },
    plugins: [
      { name: 'virtual', resolveId: (id) => (id === 'virtual-entry' ? id : null), load: (id) => (id === 'virtual-entry' ? code : null) },
      nodeResolve({ browser: true }),
      commonjs(),
      esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' }),
    ],
    onwarn: () => {},
  });
  const { output } = await bundle.generate({ format: 'es', plugins: [terser({ ecma: 2020, module: true, compress: { passes: 2 } })] });
  await bundle.close();
  // The entry chunk and every chunk it imports statically: what loads before the game can call it.
  const chunks = new Map(output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
  const loaded = new Set();
  const visit = (chunk) => {
    if (loaded.has(chunk)) return;
    loaded.add(chunk);
    for (const name of chunk.imports) visit(chunks.get(name));
  };
  visit([...chunks.values()].find((c) => c.isEntry));
  return gzipSync([...loaded].map((c) => c.code).join('\n'), { level: 9 }).length;
}

/**
 * Every size row: `{ label, bytes, budget?, tool? }`, `budget` where DESIGN section 11 sets one for what exists.
 * @returns the rows, client bundles first, then the built entries, then the IIFE
 */
export async function measureSizes() {
  const rows = [];
  for (const { label, code, budget } of CLIENT_BUNDLES) rows.push({ label, bytes: await bundledSize(code), budget, tool: 'rollup+terser' });
  for (const entry of ENTRIES) {
    const file = `dist/${entry.name}.js`;
    if (existsSync(file)) rows.push({ label: `${file} (deps external)`, bytes: gzipSync(readFileSync(file), { level: 9 }).length, tool: 'built' });
  }
  if (existsSync(IIFE.file)) rows.push({ label: `${IIFE.file} (all of ${IIFE.source})`, bytes: gzipSync(readFileSync(IIFE.file), { level: 9 }).length, tool: 'built' });
  return rows;
}
