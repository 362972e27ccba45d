/**
 * The tracker contract on the Unity package's managed tracker: cs-runner/ (C#) plays every scenario file in
 * ./scenarios against the package's public C# API under mono, once JIT-compiled (the Editor) and once compiled
 * fully ahead of time (`mono --full-aot`: no JIT at all, as on iOS and IL2CPP players). One test per file and mode.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aotProgram, csFiles, mcs, packageSources, runMono } from './cs-runner/mono.js';

const scenarios = join(import.meta.dirname, 'scenarios');
const files = readdirSync(scenarios).filter((file) => file.endsWith('.json')).sort();
const work = mkdtempSync(join(tmpdir(), 'cs-contract-'));
const runner = join(work, 'jit', 'runner.exe');
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Outcome {
  file: string;
  ok: boolean;
  error?: string;
}

/** Plays every scenario in one run of the runner; the outcome of each file. */
function play(exe: string, mode: 'jit' | 'full-aot'): Map<string, Outcome> {
  const { status, stdout, stderr } = runMono(exe, files.map((file) => join(scenarios, file)), mode);
  const outcomes = new Map<string, Outcome>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const outcome = JSON.parse(line) as Outcome;
    outcomes.set(outcome.file, outcome);
  }
  if (outcomes.size === 0) throw new Error(`the C# runner (${mode}) reported nothing (exit ${status}):\n${stdout}\n${stderr}`);
  return outcomes;
}

function expectPlayed(outcomes: () => Map<string, Outcome>, file: string): void {
  const outcome = outcomes().get(file);
  if (!outcome) throw new Error(`${file}: no outcome (the runner stopped before it)`);
  if (!outcome.ok) throw new Error(outcome.error);
  expect(outcome.ok).toBe(true);
}

beforeAll(() => {
  mcs(['-target:exe', `-out:${runner}`, ...packageSources(), ...csFiles(join(import.meta.dirname, 'cs-runner'))]);
}, 120_000);

describe('tracker contract (C# managed tracker, mono JIT)', () => {
  let outcomes = new Map<string, Outcome>();
  beforeAll(() => {
    outcomes = play(runner, 'jit');
  }, 120_000);
  for (const file of files) it(file, () => expectPlayed(() => outcomes, file));
});

describe('tracker contract (C# managed tracker, mono full AOT: no JIT, as iOS and IL2CPP)', () => {
  let outcomes = new Map<string, Outcome>();
  beforeAll(() => {
    outcomes = play(aotProgram(runner, join(work, 'aot')), 'full-aot');
  }, 300_000);
  for (const file of files) it(file, () => expectPlayed(() => outcomes, file));

  it('full AOT really forbids JIT: a program that emits code at run time fails there and runs under JIT', () => {
    const source = join(work, 'Emits.cs');
    writeFileSync(
      source,
      [
        'using System; using System.Reflection.Emit;',
        'static class Emits { static int Main() {',
        '  var method = new DynamicMethod("Seven", typeof(int), Type.EmptyTypes);',
        '  var il = method.GetILGenerator(); il.Emit(OpCodes.Ldc_I4_7); il.Emit(OpCodes.Ret);',
        '  Console.WriteLine(((Func<int>)method.CreateDelegate(typeof(Func<int>)))()); return 0; } }',
      ].join('\n'),
    );
    const exe = join(work, 'emits', 'emits.exe');
    mcs(['-target:exe', `-out:${exe}`, source]);
    expect(runMono(exe, [], 'jit')).toMatchObject({ status: 0, stdout: '7\n' });
    const aot = runMono(aotProgram(exe, join(work, 'emits-aot')), [], 'full-aot');
    expect(aot.status).not.toBe(0);
    expect(aot.stdout).not.toContain('7');
  }, 120_000);
});
