// Every client build must parse as ES2020 (old WebViews, WeChat on iOS), which has no `#private` class members.
// esbuild would lower them to a WeakMap per field plus helper functions (about +0.5 KB min+gzip on today's core,
// more as classes are added). This rollup output plugin lowers them instead to ordinary properties named
// `__private_<name>` (in the IIFE terser then mangles them to a letter or two: it is one chunk, so every use of
// a name is renamed alike), and then lowers the rest of ES2021/ES2022 to ES2020 with esbuild. The ESM/CJS builds
// use it too (issue 21: Cocos Creator does not document lowering npm packages for WeChat or native).
// Trade-off (docs/decisions.md): private state is reachable as a property, as with TS `private`.
import { Parser } from 'acorn';
import { transform } from 'esbuild';

/** Prefix of a lowered private name; the IIFE's terser `mangle.properties.regex` matches it. */
export const PRIVATE_PREFIX = '__private_';

/** `code` with every `#name` written as the property `__private_name` (`#name in obj` as `'__private_name' in obj`). */
export function lowerPrivateNames(code, sourceType = 'script') {
  const edits = [];
  const visit = (node, parent) => {
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
  let out = code;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + text + out.slice(end);
  return out;
}

/** Rollup output plugin: private names to properties, then down to `target` (ES2020) with esbuild; a script or a module, as the output is. */
export function lowerToEs2020({ target = 'es2020' } = {}) {
  return {
    name: 'lower-to-es2020',
    async renderChunk(code, _chunk, outputOptions) {
      // Assign semantics for class fields (TypeScript's useDefineForClassFields: false, which esbuild applies to its
      // ts loader only; the JavaScript here is valid TypeScript): plain `this.x = v`, no
      // defineProperty helper, so terser can mangle the lowered private names (a helper call would quote them).
      const lowered = await transform(lowerPrivateNames(code, outputOptions.format === 'es' ? 'module' : 'script'), { target, loader: 'ts', tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } } });
      return { code: lowered.code, map: null };
    },
  };
}
