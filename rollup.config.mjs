// Builds every entry to ESM (.js) and CJS (.cjs), the emulator bin, and the minified IIFE bundle.
// Declarations are rolled up separately by api-extractor (scripts/api-report.mjs).
import { copyFileSync } from 'node:fs';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { BINS, ENTRIES, IIFE, IIFE_SHA256, isExternal } from './scripts/entries.mjs';
import { sha256FromScript } from './scripts/iife-sha256.mjs';
import { lowerToEs2020, PRIVATE_PREFIX } from './scripts/lower-private.mjs';

const input = Object.fromEntries([...ENTRIES, ...BINS].map((e) => [e.name, e.source]));
const ts = (target) => esbuild({ target, tsconfig: 'tsconfig.json', sourceMap: false });

export default [
  {
    input,
    external: isExternal,
    onwarn: quiet,
    plugins: [ts('es2022')],
    // One output file per source module: a game's bundler then drops, module by module (`sideEffects: false`),
    // what it does not use. Shared chunks would mix client rules with the zod schemas of the server entries.
    output: [
      { dir: 'dist', format: 'es', preserveModules: true, entryFileNames: fileName('js') },
      { dir: 'dist', format: 'cjs', preserveModules: true, entryFileNames: fileName('cjs'), exports: 'named' },
    ],
  },
  {
    input: IIFE.source,
    // ES2022 first, then `#private` to mangled properties and the rest down to ES2020 (scripts/lower-private.mjs).
    plugins: [sha256FromScript(), nodeResolve({ browser: true }), commonjs(), ts('es2022'), iifeTypes()],
    // As package.json's `sideEffects: false` tells a game's bundler: a module none of whose exports is used adds
    // nothing (else a type-only import kept as `import './protocol.js'` drags the relay's zod schemas in).
    treeshake: { moduleSideEffects: false },
    onwarn: quiet,
    output: {
      file: IIFE.file,
      format: 'iife',
      name: IIFE.name,
      inlineDynamicImports: true,
      plugins: [lowerToEs2020(), terser({ ecma: 2020, compress: { passes: 2 }, mangle: { properties: { regex: new RegExp(`^${PRIVATE_PREFIX}`) } } })],
    },
  },
  {
    // The IIFE's SHA-256 fallback, loaded by it only on pages without crypto.subtle (scripts/iife-sha256.mjs).
    input: IIFE_SHA256.source,
    plugins: [nodeResolve({ browser: true }), ts('es2020')],
    onwarn: quiet,
    output: { file: IIFE_SHA256.file, format: 'iife', name: IIFE_SHA256.name, plugins: [terser({ ecma: 2020 })] },
  },
];

/** Entries at `dist/<entry>.<ext>`, every other module under `dist/modules/` by its source path. */
function fileName(ext) {
  const entries = new Set(Object.keys(input));
  return (chunk) => (chunk.isEntry && entries.has(chunk.name) ? `[name].${ext}` : `modules/[name].${ext}`);
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
