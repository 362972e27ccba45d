// Builds every entry to ESM (.js) and CJS (.cjs), the emulator bin, and the minified IIFE bundle.
// Declarations are rolled up separately by api-extractor (scripts/api-report.mjs).
import { copyFileSync } from 'node:fs';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { BINS, ENTRIES, IIFE, isExternal } from './scripts/entries.mjs';

const input = Object.fromEntries([...ENTRIES, ...BINS].map((e) => [e.name, e.source]));
const ts = (target) => esbuild({ target, tsconfig: 'tsconfig.json', sourceMap: false });

export default [
  {
    input,
    external: isExternal,
    onwarn: quiet,
    plugins: [ts('es2022')],
    output: [
      { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      { dir: 'dist', format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs', exports: 'named' },
    ],
  },
  {
    input: IIFE.source,
    plugins: [nodeResolve({ browser: true }), commonjs(), es2020(), iifeTypes()],
    onwarn: quiet,
    output: { file: IIFE.file, format: 'iife', name: IIFE.name, inlineDynamicImports: true, plugins: [terser()] },
  },
];

// Dependencies are lowered too (@noble/hashes uses class fields), so the bundle parses in the old WebViews
// games run in.
function es2020() {
  return esbuild({ target: 'es2020', tsconfig: 'tsconfig.json', sourceMap: false, include: /\.[cm]?[jt]s$/, exclude: [] });
}

// The hand-written declaration of the global goes next to the bundle.
function iifeTypes() {
  return { name: 'iife-types', writeBundle: () => copyFileSync(IIFE.types, IIFE.file.replace(/\.js$/, '.d.ts')) };
}

// zod ships comments rollup cannot place and a known internal import cycle; neither affects the output.
function quiet(warning, warn) {
  if (warning.code === 'INVALID_ANNOTATION' || warning.code === 'CIRCULAR_DEPENDENCY') return;
  warn(warning);
}
