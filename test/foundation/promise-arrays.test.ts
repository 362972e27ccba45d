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
});
