// Builds every entry to ESM (.js) and CJS (.cjs), the emulator bin, and the minified IIFE bundle.
// Declarations are rolled up separately by api-extractor (scripts/api-report.mjs).
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { BINS, ENTRIES, IIFE, isExternal } from './scripts/entries.mjs';
import { lowerToEs2020, PRIVATE_PREFIX } from './scripts/lower-private.mjs';

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
    // ES2022 first, then `#private` to mangled properties and the rest down to ES2020 (scripts/lower-private.mjs).
    plugins: [nodeResolve({ browser: true }), commonjs(), ts('es2022')],
    onwarn: quiet,
    output: {
      file: IIFE.file,
      format: 'iife',
      name: IIFE.name,
      inlineDynamicImports: true,
      plugins: [lowerToEs2020(), terser({ ecma: 2020, mangle: { properties: { regex: new RegExp(`^${PRIVATE_PREFIX}`) } } })],
    },
  },
];

// zod ships comments rollup cannot place and a known internal import cycle; neither affects the output.
function quiet(warning, warn) {
  if (warning.code === 'INVALID_ANNOTATION' || warning.code === 'CIRCULAR_DEPENDENCY') return;
  warn(warning);
}
