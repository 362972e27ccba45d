/**
 * The built-ins React Native 0.70's Hermes (npm hermes-engine-cli 0.12.0) lacks, measured on that VM, and none of
 * them in the code the React Native entries ship (dist/react-native.js, dist/react-native-picker.js and mitt, what
 * they import): a path no Hermes story runs (the web view host, a retry after a 429, a picker's cooldown timer) would
 * otherwise fail only on a player's phone, with `undefined is not a function`. Issue 30 item 1; the promise
 * combinators have their own type-aware check (test/foundation/promise-arrays.test.ts). Syntax the VM lacks (async
 * generators, `for await`, a regular expression literal with named groups, `\p{…}` or the `d` flag) fails `hermesc`
 * of that VM, which compiles every story bundle (hermes/hermes.ts); the rows below catch one made at run time.
 * What React Native 0.70 installs itself is not the VM's and is allowed: `AbortController` (the abort-controller 3
 * polyfill, Libraries/Core/setUpXHR.js: no `reason`, no `AbortSignal.timeout`/`any`/`throwIfAborted`, hence
 * rows below), `performance.now` (Libraries/Core/setUpPerformance.js), `queueMicrotask` (0.66+, but not needed),
 * and `crypto.getRandomValues` (react-native-get-random-values, which the guide has the app import first).
 * assumed: Intl counts as missing (the VM has none; React Native 0.70's iOS Hermes had only part of it).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { HERMES_VM } from './hermes/hermes.js';

const ROOT = join(import.meta.dirname, '../../..');

/** A built-in: how the VM is asked for it (an expression, `undefined` when missing) and how code would call it. */
interface BuiltIn {
  probe: string;
  used: RegExp;
}

/** ES2015+ and host built-ins a game's code could reach for, that Hermes 0.12 does not have. */
const MISSING: Record<string, BuiltIn> = {
  'Array.prototype.at / String.prototype.at': { probe: '[].at || "".at || new Uint8Array(0).at', used: /\.at\(/ },
  'Array.prototype.toSorted / toReversed / toSpliced / with': { probe: '[].toSorted || [].toReversed || [].toSpliced || [].with', used: /\.(toSorted|toReversed|toSpliced|with)\(/ },
  'Object.groupBy / Map.groupBy': { probe: 'Object.groupBy || Map.groupBy', used: /\bgroupBy\(/ },
  'String.prototype.isWellFormed / toWellFormed': { probe: '"".isWellFormed || "".toWellFormed', used: /\.(isWellFormed|toWellFormed)\(/ },
  'Promise.any / allSettled / withResolvers, AggregateError': { probe: 'Promise.any || Promise.allSettled || Promise.withResolvers || globalThis.AggregateError', used: /\b(Promise\.(any|allSettled|withResolvers)|AggregateError)\b/ },
  'Array.fromAsync, Symbol.asyncIterator': { probe: 'Array.fromAsync || Symbol.asyncIterator', used: /\b(fromAsync|asyncIterator)\b/ },
  structuredClone: { probe: 'globalThis.structuredClone', used: /\bstructuredClone\b/ },
  'TextEncoder / TextDecoder': { probe: 'globalThis.TextEncoder || globalThis.TextDecoder', used: /\bText(En|De)coder\b/ },
  Intl: { probe: 'globalThis.Intl', used: /\bIntl\b|\.toLocale\w*\(|\.localeCompare\(/ },
  // WeakRef is there only when the VM runs with `-Xmicrotask-queue` (measured: `typeof WeakRef` is 'function' with the
  // flag, 'undefined' without), which React Native 0.70 did not use (hermes/hermes.ts: its Promise ran on setImmediate).
  'WeakRef / FinalizationRegistry': { probe: 'globalThis.WeakRef || globalThis.FinalizationRegistry', used: /\b(WeakRef|FinalizationRegistry)\b/ },
  'atob / btoa (React Native 0.74+)': { probe: 'globalThis.atob || globalThis.btoa', used: /\b(atob|btoa)\(/ },
  'crypto.subtle / crypto.randomUUID': { probe: 'globalThis.crypto', used: /\b(subtle|randomUUID)\b/ },
  'AbortSignal.timeout / any, throwIfAborted (not in the abort-controller polyfill either)': { probe: 'globalThis.AbortSignal', used: /\bAbortSignal\.\w|\.throwIfAborted\(/ },
  'JSON.rawJSON / isRawJSON': { probe: 'JSON.rawJSON || JSON.isRawJSON', used: /\b(rawJSON|isRawJSON)\b/ },
  // Regular expressions: a literal fails hermesc at build time, one made at run time (`new RegExp(text)`) only on the phone.
  'RegExp named groups (?<name>…)': { probe: 'accepts("(?<x>a)", "")', used: /\(\?<[A-Za-z_$]|\\k</ },
  'RegExp property escapes \\p{…}': { probe: 'accepts("\\\\p{L}", "u")', used: /\\[pP]\{/ },
  'RegExp d flag (hasIndices)': { probe: 'accepts("a", "d")', used: /\bhasIndices\b|\.indices\b/ },
  'Set.prototype.union and the other set methods': { probe: 'new Set().union || new Set().intersection', used: /\.(union|intersection|symmetricDifference|isSubsetOf|isSupersetOf|isDisjointFrom)\(/ },
};

/** Runs `source` on the Hermes 0.12 VM (no `-Xmicrotask-queue`: as React Native 0.70 ran it) and returns what it printed, parsed. */
async function onHermes(source: string): Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'gc-hermes-built-ins-'));
  try {
    writeFileSync(join(dir, 'probe.js'), source);
    const { stdout } = await promisify(execFile)(HERMES_VM, [join(dir, 'probe.js')], { timeout: 20_000 });
    return JSON.parse(stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `file: name` for each missing built-in `code` (comments left out: esbuild drops them) calls. */
function offences(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, code]) => {
    const stripped = transformSync(code, { minifyWhitespace: true, format: 'esm', loader: 'js' }).code;
    return Object.entries(MISSING)
      .filter(([, builtIn]) => builtIn.used.test(stripped))
      .map(([name]) => `${file}: ${name}`);
  });
}

describe('built-ins Hermes 0.12 (React Native 0.70) lacks', () => {
  it('are missing on that VM (measured: each row rests on the engine), while the ones the entries use are there', async () => {
    const rows = Object.entries(MISSING).map(([name, { probe }]) => `out[${JSON.stringify(name)}] = typeof (${probe});`);
    const present = ['Object.fromEntries', '[].flat', 'globalThis', 'Uint8Array.from', 'Object.hasOwn', '"".replaceAll', 'Array.prototype.includes', 'Object.entries', '"".padStart', 'Promise.prototype.finally'];
    const accepts = 'function accepts(source, flags) { try { return new RegExp(source, flags); } catch (e) { return undefined; } }';
    const result = await onHermes(`${accepts} var out = {}; ${rows.join(' ')} ${present.map((expr) => `out[${JSON.stringify(expr)}] = typeof ${expr};`).join(' ')} print(JSON.stringify(out));`);
    const expected = {
      ...Object.fromEntries(Object.keys(MISSING).map((name) => [name, 'undefined'])),
      ...Object.fromEntries(present.map((expr) => [expr, expr === 'globalThis' ? 'object' : 'function'])),
    };
    expect(result).toEqual(expected);
    // The regular expression probes are well formed: V8 (Node) accepts each.
    const regExpRows = Object.values(MISSING).filter(({ probe }) => probe.startsWith('accepts('));
    expect(regExpRows.map(({ probe }) => new Function(`${accepts} return ${probe};`)() instanceof RegExp)).toEqual([true, true, true]);
  });

  it('the check finds each in code that calls it', () => {
    const bad = 'export const last = (list) => list.at(-1); export const copy = (v) => structuredClone(v); const bytes = new TextEncoder().encode("x"); export const b = btoa("x") + bytes; /* Intl in a comment is fine */ export const t = AbortSignal.timeout(5);';
    expect(offences({ 'bad.js': bad, 'good.js': 'export const last = (list) => list[list.length - 1]; // list.at(-1) is not on Hermes 0.12' })).toEqual([
      'bad.js: Array.prototype.at / String.prototype.at',
      'bad.js: structuredClone',
      'bad.js: TextEncoder / TextDecoder',
      'bad.js: atob / btoa (React Native 0.74+)',
      'bad.js: AbortSignal.timeout / any, throwIfAborted (not in the abort-controller polyfill either)',
    ]);
  });

  it('are not called by the React Native entries or what they import (dist/react-native.js, the picker entry, mitt)', () => {
    const files = ['dist/react-native.js', 'dist/react-native-picker.js', 'node_modules/mitt/dist/mitt.mjs'];
    expect(offences(Object.fromEntries(files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')])))).toEqual([]);
  });
});
