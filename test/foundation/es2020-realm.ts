/**
 * An ES2020 JavaScript realm: a `node:vm` context whose every built-in newer than ES2020 is deleted, as on
 * JavaScriptCore before iOS 15.4 (old iPhones' WebViews, WeChat on iOS) and other old engines. The SDK's built
 * bundles run in it (see es2020-realm.test.ts): a call to, say, `Array.prototype.at` there throws a TypeError.
 *
 * Decided: Error's `cause` option (ES2022) is not removed. An ES2020 `Error` ignores a second argument, so code
 * that passes one runs alike; only reading `error.cause` differs, which the SDK never does to decide anything
 * (the guide says `cause` is there "where the runtime keeps Error causes"). Host APIs the page or game has
 * (timers, `fetch`, `crypto`, ...) are the test's own, given to the realm as globals.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { createContext, runInContext, type Context } from 'node:vm';

/**
 * Every built-in newer than ES2020 (ES2021 to ES2025 and what V8 already ships beyond), by where it lives.
 * `%TypedArray%` is the typed arrays' shared constructor, `%IteratorPrototype%` every iterator's prototype.
 */
export const NEWER_THAN_ES2020 = [
  // ES2021
  'String.prototype.replaceAll',
  'Promise.any',
  'AggregateError',
  'WeakRef',
  'FinalizationRegistry',
  'Intl.ListFormat',
  'Intl.DisplayNames',
  'Intl.DateTimeFormat.prototype.formatRange',
  'Intl.DateTimeFormat.prototype.formatRangeToParts',
  // ES2022
  'Array.prototype.at',
  'String.prototype.at',
  '%TypedArray%.prototype.at',
  'Object.hasOwn',
  'Intl.Segmenter',
  'Intl.supportedValuesOf',
  // ES2023
  'Array.prototype.findLast',
  'Array.prototype.findLastIndex',
  '%TypedArray%.prototype.findLast',
  '%TypedArray%.prototype.findLastIndex',
  'Array.prototype.toSorted',
  'Array.prototype.toReversed',
  'Array.prototype.toSpliced',
  'Array.prototype.with',
  '%TypedArray%.prototype.toSorted',
  '%TypedArray%.prototype.toReversed',
  '%TypedArray%.prototype.with',
  'Intl.NumberFormat.prototype.formatRange',
  'Intl.NumberFormat.prototype.formatRangeToParts',
  'Intl.PluralRules.prototype.selectRange',
  // ES2024
  'Object.groupBy',
  'Map.groupBy',
  'Promise.withResolvers',
  'String.prototype.isWellFormed',
  'String.prototype.toWellFormed',
  'Atomics.waitAsync',
  'ArrayBuffer.prototype.resize',
  'ArrayBuffer.prototype.resizable',
  'ArrayBuffer.prototype.maxByteLength',
  'ArrayBuffer.prototype.transfer',
  'ArrayBuffer.prototype.transferToFixedLength',
  'ArrayBuffer.prototype.detached',
  'SharedArrayBuffer.prototype.grow',
  'SharedArrayBuffer.prototype.growable',
  'SharedArrayBuffer.prototype.maxByteLength',
  // ES2025 and later, where this Node already has them
  'Array.fromAsync',
  'Set.prototype.union',
  'Set.prototype.intersection',
  'Set.prototype.difference',
  'Set.prototype.symmetricDifference',
  'Set.prototype.isSubsetOf',
  'Set.prototype.isSupersetOf',
  'Set.prototype.isDisjointFrom',
  'Iterator',
  '%IteratorPrototype%.map',
  '%IteratorPrototype%.filter',
  '%IteratorPrototype%.take',
  '%IteratorPrototype%.drop',
  '%IteratorPrototype%.flatMap',
  '%IteratorPrototype%.reduce',
  '%IteratorPrototype%.toArray',
  '%IteratorPrototype%.forEach',
  '%IteratorPrototype%.some',
  '%IteratorPrototype%.every',
  '%IteratorPrototype%.find',
  'Promise.try',
  'RegExp.escape',
  'Float16Array',
  'Math.f16round',
  'Math.sumPrecise',
  'Error.isError',
  'Uint8Array.fromBase64',
  'Uint8Array.fromHex',
  'Uint8Array.prototype.toBase64',
  'Uint8Array.prototype.toHex',
  'Uint8Array.prototype.setFromBase64',
  'Uint8Array.prototype.setFromHex',
  'JSON.rawJSON',
  'JSON.isRawJSON',
  'Intl.DurationFormat',
  'DisposableStack',
  'AsyncDisposableStack',
  'SuppressedError',
  'Symbol.dispose',
  'Symbol.asyncDispose',
  // Host APIs an old engine lacks too (a vm context has none of them unless given).
  'structuredClone',
] as const;

/** The realm-side code that resolves a path of {@link NEWER_THAN_ES2020} to its owner and name. */
const OWNER_OF = `(path) => {
  const parts = path.split('.');
  const name = parts.pop();
  let owner = globalThis;
  for (const part of parts) {
    if (owner == null) return [undefined, name];
    owner = part === '%TypedArray%' ? Object.getPrototypeOf(Int8Array)
      : part === '%IteratorPrototype%' ? Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()))
      : owner[part];
  }
  return [owner, name];
}`;

/** A realm with every built-in of {@link NEWER_THAN_ES2020} deleted and `globals` (host APIs) defined. */
export function createEs2020Realm(globals: Record<string, unknown>): Context {
  const context = createContext({ ...globals });
  runInContext(
    `(() => {
      const ownerOf = ${OWNER_OF};
      for (const path of ${JSON.stringify(NEWER_THAN_ES2020)}) {
        const [owner, name] = ownerOf(path);
        if (owner != null && name in owner) delete owner[name];
      }
    })()`,
    context,
  );
  return context;
}

/** The paths of {@link NEWER_THAN_ES2020} the realm still has (none, when the deletion worked). */
export function builtInsLeft(realm: Context): string[] {
  return runInContext(`(() => { const ownerOf = ${OWNER_OF}; return ${JSON.stringify(NEWER_THAN_ES2020)}.filter((path) => { const [owner, name] = ownerOf(path); return owner != null && name in owner; }); })()`, realm) as string[];
}

/**
 * A CommonJS `require` that evaluates every module inside `realm` (our bundles and the dependencies they require),
 * so their code runs on the realm's built-ins only. `loaded` lists each file evaluated.
 */
export function realmRequire(realm: Context): { require(file: string): any; loaded: string[] } {
  const cache = new Map<string, { exports: unknown }>();
  const loaded: string[] = [];
  const load = (file: string): any => {
    const cached = cache.get(file);
    if (cached) return cached.exports;
    const module = { exports: {} as unknown };
    cache.set(file, module);
    loaded.push(file);
    const wrapper = runInContext(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, realm, { filename: file });
    const requireFrom = (specifier: string) => load(specifier.startsWith('.') ? resolve(dirname(file), specifier) : createRequire(file).resolve(specifier));
    wrapper(module.exports, requireFrom, module, file, dirname(file));
    return module.exports;
  };
  return { require: load, loaded };
}
