// Everything built parses as ES2020 (old WebViews), which has no `#private` class members and no class fields.
// esbuild would lower them to a WeakMap per field plus helper functions (about +0.5 KB min+gzip on today's core,
// more as classes are added), and a game's esbuild at ES2020 would do the same to dist/: its helpers then land in
// a chunk of their own that every chunk imports, a second file the game loads at start (esbuild issue #1892).
// This rollup output plugin lowers them instead to ordinary properties named `__private_<name>` (which the IIFE's
// terser mangles to a letter or two: the IIFE is one chunk, so every use of a name is renamed alike) and class
// fields to assignments, then the rest of ES2021/ES2022 to ES2020 with esbuild: the ESM/CJS modules of dist/ too.
// Trade-off (docs/decisions.md): private state is reachable as a property, as with TypeScript `private`.
import { Parser } from 'acorn';
import { transform } from 'esbuild';

/**
 * Prefix of a lowered private name: short, since a game's minifier cannot shorten a property name (every byte
 * of it is in the game's bundle); the IIFE's terser mangles `_` + a letter ({@link LOWERED_NAME}).
 */
export const PRIVATE_PREFIX = '_';

/** What a lowered private name looks like, for the IIFE's terser `mangle.properties.regex`. */
export const LOWERED_NAME = /^_[a-zA-Z]/;

/**
 * `code` with every `#name` written as the property `_name` (`#name in obj` as `'_name' in obj`). `sourceType` is
 * `module` for ESM output. Throws when the code already uses a name a private one would become.
 */
export function lowerPrivateNames(code, sourceType = 'script') {
  const edits = [];
  const names = new Set();
  const visit = (node, parent) => {
    if (node.type === 'Identifier') names.add(node.name);
    if (node.type === 'Literal' && typeof node.value === 'string') names.add(node.value);
    if (node.type === 'PrivateIdentifier') {
      const name = `${PRIVATE_PREFIX}${node.name}`;
      const inCheck = parent?.type === 'BinaryExpression' && parent.operator === 'in' && parent.left === node;
      edits.push([node.start, node.end, inCheck ? JSON.stringify(name) : name]);
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const child of value) if (child && typeof child.type === 'string') visit(child, node);
      if (value && typeof value === 'object' && typeof value.type === 'string') visit(value, node);
    }
  };
  visit(Parser.parse(code, { ecmaVersion: 2022, sourceType, allowHashBang: true }));
  const taken = edits.map(([, , text]) => text.replace(/"/g, '')).filter((name) => names.has(name));
  if (taken.length) throw new Error(`lower-private: ${[...new Set(taken)].join(', ')} already used; a private name cannot become it`);
  let out = code;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + text + out.slice(end);
  return out;
}

/** esbuild's `__async` helper as it defines it: `(__this, __arguments, generator)`. */
const ASYNC_HELPER = `var __async = (__this, __arguments, generator) => {
  return new Promise((resolve, reject) => {
    var fulfilled = (value) => {
      try {
        step(generator.next(value));
      } catch (e) {
        reject(e);
      }
    };
    var rejected = (value) => {
      try {
        step(generator.throw(value));
      } catch (e) {
        reject(e);
      }
    };
    var step = (x) => x.done ? resolve(x.value) : Promise.resolve(x.value).then(fulfilled, rejected);
    step((generator = generator.apply(__this, __arguments)).next());
  });
};`;

/**
 * The same helper with the generator first, and one `step` that resumes the generator by `next` or `throw` (esbuild's
 * two callbacks repeat the try block): every React Native app carries it (Metro keeps it as written).
 */
const COMPACT_ASYNC_HELPER = `var __async = (generator, __this, __arguments) => new Promise((resolve, reject) => {
  var step = (key, value) => {
    try {
      var x = generator[key](value);
      x.done ? resolve(x.value) : Promise.resolve(x.value).then((v) => step("next", v), (e) => step("throw", e));
    } catch (e) {
      reject(e);
    }
  };
  generator = generator.apply(__this, __arguments);
  step("next");
});`;

/**
 * `code` (esbuild's output with async functions lowered) with every `__async(thisArg, args, function* () {...})` written
 * `__async(function* () {...})`, the generator first and `this` and `arguments` after it only when it uses them: most
 * lowered functions use neither, and `null, null, ` or `this, null, ` repeated at some 60 calls is about 50 B gzip in a
 * Metro bundle. The helper takes its parameters in that order (`generator.apply(undefined, undefined)` is a plain call).
 * Throws when the helper is not esbuild's as expected.
 */
export function compactAsyncCalls(code, sourceType = 'module') {
  if (!code.includes('__async(')) return code;
  if (!code.includes(ASYNC_HELPER)) throw new Error('lower-private: esbuild\'s __async helper changed; compactAsyncCalls expects its (__this, __arguments, generator)');
  const edits = [];
  /** Whether `node` has `this` of its own function (not one of a nested non-arrow function). */
  const usesThis = (node) => {
    if (!node || typeof node !== 'object') return false;
    if (node.type === 'ThisExpression') return true;
    if (node.type === 'FunctionExpression' || node.type === 'FunctionDeclaration') return false;
    return Object.values(node).some((value) => (Array.isArray(value) ? value.some(usesThis) : value && typeof value.type === 'string' && usesThis(value)));
  };
  const visit = (node) => {
    const [thisArg, args, generator] = node.arguments ?? [];
    if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === '__async' && generator?.type === 'FunctionExpression') {
      const isNull = (arg) => arg.type === 'Literal' && arg.value === null;
      const keepArgs = !isNull(args);
      const keepThis = keepArgs || (!isNull(thisArg) && usesThis(generator.body));
      const after = keepThis ? `, ${code.slice(thisArg.start, thisArg.end)}${keepArgs ? `, ${code.slice(args.start, args.end)}` : ''}` : '';
      edits.push([node.start, generator.start, '__async('], [generator.end, node.end, `${after})`]);
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const child of value) if (child && typeof child.type === 'string') visit(child);
      if (value && typeof value === 'object' && typeof value.type === 'string') visit(value);
    }
  };
  visit(Parser.parse(code, { ecmaVersion: 2022, sourceType, allowHashBang: true }));
  let out = code;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + text + out.slice(end);
  return out.replace(ASYNC_HELPER, COMPACT_ASYNC_HELPER);
}

/**
 * Rollup output plugin: private names to properties, then down to `target` (ES2020) with esbuild. `supported`: esbuild's
 * option, to lower more than the target asks (the React Native entry's async functions, whose `__async` calls are then
 * compacted: {@link compactAsyncCalls}).
 */
export function lowerToEs2020({ target = 'es2020', supported } = {}) {
  return {
    name: 'lower-to-es2020',
    async renderChunk(code, chunk, output) {
      // Assign semantics for class fields (TypeScript's useDefineForClassFields: false, which esbuild applies to its
      // ts loader only; the JavaScript here is valid TypeScript): plain `this.x = v`, no
      // defineProperty helper, so terser can mangle the lowered private names (a helper call would quote them).
      // verbatimModuleSyntax: the ts loader keeps every import as written (it would drop ones it takes for types).
      const sourceType = output.format === 'es' ? 'module' : 'script';
      const compilerOptions = { useDefineForClassFields: false, verbatimModuleSyntax: true };
      const lowered = await transform(lowerPrivateNames(code, sourceType), { target, supported, loader: 'ts', format: output.format === 'es' ? 'esm' : undefined, tsconfigRaw: { compilerOptions } });
      return { code: supported?.['async-await'] === false ? compactAsyncCalls(lowered.code, sourceType) : lowered.code, map: null };
    },
  };
}
