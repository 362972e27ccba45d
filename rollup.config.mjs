// Builds every entry to ESM (.js) and CJS (.cjs), the emulator bin, and the minified IIFE bundle.
// Declarations are rolled up separately by api-extractor (scripts/api-report.mjs).
import { copyFileSync, readFileSync } from 'node:fs';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { BINS, ENTRIES, IIFE, IIFE_SIBLINGS, isExternal } from './scripts/entries.mjs';
import { siblingsFromScripts } from './scripts/iife-siblings.mjs';
import { LOWERED_NAME, lowerToEs2020 } from './scripts/lower-private.mjs';

const input = Object.fromEntries([...ENTRIES.filter((e) => !e.selfContained), ...BINS].map((e) => [e.name, e.source]));
/**
 * @noble/hashes is bundled into dist/ (lowered to ES2020 with the rest): it ships ES2022 class fields
 * (adapters/shared/sha256.ts says why a game's bundler must find nothing to lower).
 */
const external = (id, ...rest) => !id.startsWith('@noble/hashes') && isExternal(id, ...rest);
/**
 * Bundled, it is no runtime dependency of the package (a devDependency: its `engines`, Node 20.19+, made npm warn
 * EBADENGINE on Node 20.0-20.18, which the package supports), so its license goes next to its code in dist/.
 */
const nobleLicense = () => ({
  name: 'noble-license',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'modules/vendor/@noble/hashes/LICENSE', source: readFileSync('node_modules/@noble/hashes/LICENSE', 'utf8') });
  },
});
/**
 * terser for the IIFE and its siblings: ES2020, the lowered private names mangled (scripts/lower-private.mjs), and
 * ASCII only: a page or a CDN that declares no encoding reads a script as windows-1252, where UTF-8 bytes (the web
 * view's ×, the key range's \uffff) become other characters. `unsafe_arrows`: a function expression that uses no
 * `this`, `arguments` or `new.target` is written as an arrow (terser's inlined single-use functions, mitt's methods,
 * two exported functions), 31 B gzip off the IIFE; "unsafe" only for code that calls one with `new` or reads its
 * `prototype`, which nothing does (the SDK's constructors are classes; docs/decisions.md, "IIFE: terser's unsafe_arrows").
 */
const IIFE_TERSER = { ecma: 2020, compress: { passes: 3, unsafe_arrows: true }, mangle: { properties: { regex: LOWERED_NAME } }, format: { ascii_only: true } };
const ts = (target) => esbuild({ target, tsconfig: 'tsconfig.json', sourceMap: false });

export default [
  {
    input,
    external,
    onwarn: quiet,
    plugins: [nodeResolve({ resolveOnly: [/^@noble\/hashes/] }), es2020BuiltIns(), ts('es2022'), nobleLicense()],
    // One output file per source module: a game's bundler then drops, module by module (`sideEffects: false`),
    // what it does not use. Shared chunks would mix client rules with the zod schemas of the server entries.
    // ES2020 syntax, like the IIFE (scripts/lower-private.mjs): Cocos Creator may pack these files for WeChat or
    // native without lowering them (docs/guides/cocos.md), old WebViews run the game's bundle as it is, and a game's
    // bundler at ES2020 has nothing to lower, so esbuild adds no helpers (a second file every game loads at start).
    output: [
      { dir: 'dist', format: 'es', preserveModules: true, entryFileNames: fileName('js'), plugins: [lowerToEs2020()] },
      { dir: 'dist', format: 'cjs', preserveModules: true, entryFileNames: fileName('cjs'), exports: 'named', plugins: [lowerToEs2020()] },
    ],
  },
  // Self-contained entries (React Native): one ESM and one CJS file each, every module they reach inside, `import()`
  // inlined, ES2020 and not minified (the app's bundler minifies). Metro keeps every module an entry reaches and
  // wraps each file as a module of its own (a wrapper, `exports` assignments, a `require` at every use of an
  // import with inline requires on): one file costs a React Native app about 3.7 KB gzip less than the same code
  // as 80 modules (docs/performance.md). The error classes are then a copy of their own: a React Native app imports
  // this entry only, and tells errors apart by `code` (docs/guides/react-native.md).
  ...ENTRIES.filter((entry) => entry.selfContained).map((entry) => ({
    input: { [entry.name]: entry.source },
    external,
    plugins: [nodeResolve({ resolveOnly: [/^@noble\/hashes/] }), es2020BuiltIns(), ts('es2022')],
    // As package.json's `sideEffects: false` tells a bundler (a type-only import kept as `import './x.js'` adds nothing).
    treeshake: { moduleSideEffects: false },
    onwarn: quiet,
    output: ['es', 'cjs'].map((format) => ({
      dir: 'dist',
      format,
      entryFileNames: `[name].${format === 'es' ? 'js' : 'cjs'}`,
      exports: 'named',
      inlineDynamicImports: true,
      // A lazily imported module inlined here is a namespace object: plain (not frozen), reached by an arrow.
      generatedCode: { arrowFunctions: true },
      freeze: false,
      // Async functions lowered here, to generators under esbuild's one `__async` helper: @react-native/babel-preset
      // would lower each of them itself, with two wrapper functions apiece (0.3 KB gzip over the entry; Hermes runs
      // generators as they are); each call then gives `this` and `arguments` only when its generator uses them
      // (compactAsyncCalls).
      plugins: [lowerToEs2020({ supported: { 'async-await': false } })],
    })),
  })),
  {
    input: IIFE.source,
    // ES2022 first, then `#private` to mangled properties and the rest down to ES2020 (scripts/lower-private.mjs).
    plugins: [siblingsFromScripts(), nodeResolve({ browser: true }), commonjs(), es2020BuiltIns(), ts('es2022'), iifeTypes()],
    // As package.json's `sideEffects: false` tells a game's bundler: a module none of whose exports is used adds
    // nothing (else a type-only import kept as `import './protocol.js'` drags the relay's zod schemas in).
    treeshake: { moduleSideEffects: false },
    onwarn: quiet,
    output: {
      file: IIFE.file,
      format: 'iife',
      name: IIFE.name,
      inlineDynamicImports: true,
      // A lazily imported module inlined here is a namespace object: plain (not frozen), reached by an arrow.
      generatedCode: { arrowFunctions: true },
      freeze: false,
      plugins: [lowerToEs2020(), terser(IIFE_TERSER)],
    },
  },
  // The IIFE's siblings, loaded by it on first use (scripts/iife-siblings.mjs): SHA-256 where crypto.subtle is
  // missing, and the web view's code.
  ...Object.values(IIFE_SIBLINGS).map((sibling) => ({
    input: sibling.source,
    plugins: [nodeResolve({ browser: true }), es2020BuiltIns(), ts('es2022')],
    onwarn: quiet,
    // Lowered after bundling, like the IIFE: @noble/hashes ships ES2022 class fields, which the ts plugin (our
    // sources only) leaves as they are.
    output: { file: sibling.file, format: 'iife', name: sibling.name, plugins: [lowerToEs2020(), terser(IIFE_TERSER)] },
  })),
];

/**
 * Entries at `dist/<entry>.<ext>`, every other module under `dist/modules/` by its source path; a bundled
 * package's under `dist/modules/vendor/` (npm leaves every `node_modules` folder out of a tarball).
 */
function fileName(ext) {
  const entries = new Set(Object.keys(input));
  return (chunk) => (chunk.isEntry && entries.has(chunk.name) ? `[name].${ext}` : `modules/${chunk.name.replace(/^node_modules\//, 'vendor/')}.${ext}`);
}

/**
 * @noble/hashes calls `Object.hasOwn` (ES2022) when its module loads (`createHasher` -> `checkOpts`): an ES2020
 * engine (Safari before 15.4, an old WebView) threw there, so the SHA-256 fallback never loaded. Lowering syntax
 * does not touch built-ins; `Object.prototype.hasOwnProperty.call` is the same test in ES2020.
 */
function es2020BuiltIns() {
  return {
    name: 'es2020-built-ins',
    transform: (code, id) => (id.includes('@noble/hashes') && code.includes('Object.hasOwn(') ? code.replace(/Object\.hasOwn\(/g, 'Object.prototype.hasOwnProperty.call(') : null),
  };
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
