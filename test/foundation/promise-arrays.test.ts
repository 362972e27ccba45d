/**
 * No iterable other than an array reaches `Promise.all` or `Promise.race` in game-client code, and neither
 * `Promise.allSettled` nor `Promise.any` is called (promise-arrays.ts), because React Native 0.70's Hermes differs
 * there. What that VM (npm hermes-engine-cli 0.12.0) does is measured here too, so the rule rests on the engine,
 * not on memory: the rest of ES2015 Set/Map iteration (for-of, spread, Array.from, the Set and Map constructors)
 * works on it, so the rule needs to cover the promise combinators only.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { gameClientSources, promiseCombinatorOffences } from './promise-arrays.js';

const HERMES_VM = join(import.meta.dirname, '../../node_modules/hermes-engine-cli/linux64-bin/hermes');

describe('promise combinators in game-client code', () => {
  it('reports a Set, an iterator or a Map given to Promise.all/race, and any Promise.allSettled/any (the check itself works)', () => {
    const offences = promiseCombinatorOffences([], {
      'examples/bad.ts': [
        'const pending = new Set<Promise<void>>();',
        'export const settled = async () => { while (pending.size) await Promise.all(pending); };', // tracker.ts before the fix
        'const byKey = new Map<string, Promise<number>>();',
        'export const first = () => Promise.race(byKey.values());',
        'export const all = () => Promise.allSettled([Promise.resolve(1)]);',
        'export const any = () => Promise.any([Promise.resolve(1)]);',
        'export const either = (work: Promise<void>[] | Set<Promise<void>>) => Promise.all(work);',
      ].join('\n'),
      'examples/good.ts': [
        'const pending = new Set<Promise<void>>();',
        'export const settled = () => Promise.all(Array.from(pending));',
        'export const spread = () => Promise.all([...pending]);',
        'export const mapped = (keys: string[]) => Promise.all(keys.map(async (key) => key));',
        'export const tuple = () => Promise.race([Promise.resolve(1), Promise.resolve("a")] as const);',
        'export const list = (work: ReadonlyArray<Promise<void>>) => Promise.all(work);',
      ].join('\n'),
    });
    expect(offences).toEqual([
      'examples/bad.ts:2: Promise.all gets Set<Promise<void>>, not an array (Hermes 0.12 reads only arrays)',
      'examples/bad.ts:4: Promise.race gets MapIterator<Promise<number>>, not an array (Hermes 0.12 reads only arrays)',
      'examples/bad.ts:5: Promise.allSettled does not exist on Hermes 0.12 (React Native 0.70)',
      'examples/bad.ts:6: Promise.any does not exist on Hermes 0.12 (React Native 0.70)',
      'examples/bad.ts:7: Promise.all gets Set<Promise<void>> | Promise<void>[], not an array (Hermes 0.12 reads only arrays)',
    ]);
  });

  it('finds none in core/ and adapters/ (adapters/node aside)', () => {
    const files = gameClientSources();
    expect(files.length).toBeGreaterThan(100);
    expect(promiseCombinatorOffences(files)).toEqual([]);
  });
});

/** Runs `source` on the Hermes 0.12 VM (with its microtask queue, as React Native drains jobs) and returns its JSON. */
async function onHermes(source: string): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'gc-hermes-probe-'));
  try {
    writeFileSync(join(dir, 'probe.js'), source);
    const { stdout } = await promisify(execFile)(HERMES_VM, ['-Xmicrotask-queue', join(dir, 'probe.js')], { timeout: 20_000 });
    return JSON.parse(stdout) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('Hermes 0.12 (React Native 0.70), measured', () => {
  it('iterates a Set and a Map as ES2015 says: for-of, spread, Array.from and the Set and Map constructors', async () => {
    const result = await onHermes(`
      var set = new Set([1, 2]), map = new Map([['a', 1], ['b', 2]]), out = {};
      var seen = []; for (var x of set) seen.push(x); out.forOfSet = seen;
      var pairs = []; for (var [k, v] of map) pairs.push(k + v); out.forOfMap = pairs;
      out.spreadSet = [...set]; out.spreadKeys = [...map.keys()];
      out.fromSet = Array.from(set); out.fromValues = Array.from(map.values()); out.fromEntries = Object.fromEntries(map);
      out.setOfSet = new Set(set).size; out.mapOfMap = new Map(map).get('b');
      print(JSON.stringify(out));`);
    expect(result).toEqual({ forOfSet: [1, 2], forOfMap: ['a1', 'b2'], spreadSet: [1, 2], spreadKeys: ['a', 'b'], fromSet: [1, 2], fromValues: [1, 2], fromEntries: { a: 1, b: 2 }, setOfSet: 2, mapOfMap: 2 });
  });

  it('differs in the promise combinators: Promise.all reads a Set as empty, Promise.race rejects an iterator, allSettled and any are missing', async () => {
    const result = await onHermes(`
      var out = { allSettled: typeof Promise.allSettled, any: typeof Promise.any };
      var work = Promise.resolve(5);
      Promise.all(new Set([work])).then(function (v) { out.allOfSet = v; });
      Promise.all([work]).then(function (v) { out.allOfArray = v; });
      Promise.race(new Map([['k', work]]).values()).then(function (v) { out.raceOfIterator = v; }, function (e) { out.raceOfIterator = e.name; });
      Promise.race([work]).then(function (v) { out.raceOfArray = v; });
      setTimeout(function () { print(JSON.stringify(out)); }, 0);`);
    expect(result).toEqual({ allSettled: 'undefined', any: 'undefined', allOfSet: [], allOfArray: [5], raceOfIterator: 'TypeError', raceOfArray: 5 });
  });

  // Each other built-in the React Native entry's code calls (dist/react-native.js after the app's Babel, profile
  // 'default'), as the SDK calls it: the same answers as V8 (issue 30 item 1's "no other ES2015+ behaviour").
  it('runs the other built-ins the React Native bundle calls as V8 does', async () => {
    const probe = `
      var out = {};
      out.fromEntries = Object.fromEntries([['a', 1]]); out.flat = [[1], [2, [3]]].flat(); out.padStart = '7'.padStart(4, '0');
      out.codePoints = Array.from('a\\ud83d\\ude00b').length; out.bytes = Array.from(Uint8Array.from('ab', function (c) { return c.charCodeAt(0); }));
      out.cause = new Error('m', { cause: 'c' }).cause; out.safe = Number.isSafeInteger(Math.pow(2, 53));
      out.iso = Date.parse('2026-03-01T12:00:00.123Z'); out.isoNoMs = Date.parse('2026-03-01T12:00:00Z');
      out.toIso = new Date(1772366400123).toISOString(); out.httpDate = new Date(Date.parse('Sun, 01 Mar 2026 12:00:00 GMT')).toUTCString();
      out.days = new Date(new Date(0).setUTCFullYear(2024, 2, 0)).getUTCDate();
      out.cooldown = /\\bin (\\d+) days?\\b|\\b(\\d+) days? remaining\\b/i.exec('Try again in 27 days')[1];
      out.nonAscii = 'a\\u00e9\\ud83d\\ude00'.replace(/[^\\0-\\x7f]/g, '...').length;
      var rows = []; for (var i = 0; i < 50; i++) rows.push([i % 3, i]);
      out.stable = rows.sort(function (a, b) { return a[0] - b[0]; }).every(function (r, j, all) { return j === 0 || r[0] !== all[j - 1][0] || r[1] > all[j - 1][1]; });
      out.keys = ['q:0010:a', 'q:0009:b', 'r:x'].sort();
      var set = new Set([1, 2, 3]), seen = []; set.forEach(function (v) { seen.push(v); set.delete(v); if (v === 1) set.add(4); }); out.setWhileDeleting = seen;
      var map = new Map([[1, 1], [2, 2]]), keys = []; for (var k of map.keys()) { keys.push(k); map.delete(k); if (k === 1) map.set(3, 3); } out.mapWhileDeleting = keys;
      print(JSON.stringify(out));`;
    const expected = { fromEntries: { a: 1 }, flat: [1, 2, [3]], padStart: '0007', codePoints: 3, bytes: [97, 98], cause: 'c', safe: false, iso: 1772366400123, isoNoMs: 1772366400000, toIso: '2026-03-01T12:00:00.123Z', httpDate: 'Sun, 01 Mar 2026 12:00:00 GMT', days: 29, cooldown: '27', nonAscii: 10, stable: true, keys: ['q:0009:b', 'q:0010:a', 'r:x'], setWhileDeleting: [1, 2, 3, 4], mapWhileDeleting: [1, 2, 3] };
    expect(await onHermes(probe)).toEqual(expected);
    let node = '';
    new Function('print', probe)((text: string) => (node = text));
    expect(JSON.parse(node)).toEqual(expected);
  });

  it('differs in JSON.stringify of a lone surrogate: written as it is, not escaped (ES2019); native code then gets U+FFFD', async () => {
    const result = await onHermes(`
      var text = JSON.stringify('a\\ud800'), codes = [];
      for (var i = 0; i < text.length; i++) codes.push(text.charCodeAt(i).toString(16));
      print(JSON.stringify({ codes: codes, pair: JSON.stringify('\\ud83d\\ude00').length }));`);
    expect(result).toEqual({ codes: ['22', '61', 'd800', '22'], pair: 4 });
    expect(JSON.stringify('a\ud800')).toBe('"a\\ud800"'); // V8, as ES2019 says
  });
});
