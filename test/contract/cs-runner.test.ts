/**
 * The tracker contract on the Unity package's managed tracker: cs-runner/ (C#) plays every scenario file in
 * ./scenarios against the package's public C# API under mono, once JIT-compiled (the Editor) and once compiled
 * fully ahead of time (`mono --full-aot`: no JIT at all, as on iOS and IL2CPP players). One test per file and mode.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonical } from './canonical-json.js';
import { inDefinedOrder } from './delivery-order.js';
import { aotProgram, csFiles, mcs, packageSources, runMono } from './cs-runner/mono.js';
import { loadScenario } from './scenario.js';
import { runScenario } from './ts-runner.js';

const scenarios = join(import.meta.dirname, 'scenarios');
const files = readdirSync(scenarios).filter((file) => file.endsWith('.json')).sort();
const work = mkdtempSync(join(tmpdir(), 'cs-contract-'));
const runner = join(work, 'jit', 'runner.exe');
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Outcome {
  file: string;
  ok: boolean;
  error?: string;
  /** The sessions the relays recorded, in order, as the C# tracker's requests carried them (no sessionId). */
  wire?: Record<string, unknown>[];
  /** For each of `wire`: the start-up that recovered it, 0 if none did. */
  recovery?: number[];
}

/**
 * Plays every scenario in one run of the runner; the outcome of each file. Each mode on a device whose locale writes
 * numbers and dates otherwise than the wire does (German and Turkish: `1,5`, `27.11.2026`; Turkish upper-cases `i` to
 * `İ`; the phones below: Saudi Arabic, whose calendar is Umm al-Qura (`15/12/47`), and Persian, whose decimal separator
 * is `/`): the relay reads every body strictly (FakeRelay.cs), so a culture-dependent write fails the scenario.
 */
function play(exe: string, mode: 'jit' | 'full-aot', device = 'desktop', locale = mode === 'jit' ? 'de_DE.UTF-8' : 'tr_TR.UTF-8'): Map<string, Outcome> {
  const env = { GAME_CAMPAIGN_CONTRACT_DEVICE: device };
  const { status, stdout, stderr } = runMono(exe, files.map((file) => join(scenarios, file)), mode, locale, env);
  const outcomes = new Map<string, Outcome>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const outcome = JSON.parse(line) as Outcome;
    outcomes.set(outcome.file, outcome);
  }
  if (outcomes.size === 0) throw new Error(`the C# runner (${mode}) reported nothing (exit ${status}):\n${stdout}\n${stderr}`);
  return outcomes;
}

/**
 * What the TypeScript tracker's requests carried in each scenario (ts-runner, played once per file), in its defined order:
 * the sessions one start-up recovered sorted among themselves (delivery-order.ts), as their ids are random.
 */
const tsWire = new Map<string, Promise<string[]>>();
function wireOfTypeScript(file: string): Promise<string[]> {
  if (!tsWire.has(file)) tsWire.set(file, runScenario(loadScenario(join(scenarios, file))).then((received) => inDefinedOrder(received.map(({ wire, recovery }) => ({ item: canonical(wire), recovery })), String)));
  return tsWire.get(file)!;
}

/** The scenario held on the C# tracker, and every session it delivered the same JSON the TypeScript tracker sent. */
async function expectPlayed(outcomes: () => Map<string, Outcome>, file: string): Promise<void> {
  const outcome = outcomes().get(file);
  if (!outcome) throw new Error(`${file}: no outcome (the runner stopped before it)`);
  if (!outcome.ok) throw new Error(outcome.error);
  expect(outcome.ok).toBe(true);
  const wire = (outcome.wire ?? []).map((session, index) => ({ item: canonical(session), recovery: outcome.recovery?.[index] || undefined }));
  expect(inDefinedOrder(wire, String)).toEqual(await wireOfTypeScript(file));
}

beforeAll(() => {
  mcs(['-target:exe', `-out:${runner}`, ...packageSources(), ...csFiles(join(import.meta.dirname, 'cs-runner'))]);
}, 120_000);

/** The runner compiled fully ahead of time, once. */
let aotRunner: string | undefined;
const aot = (): string => (aotRunner ??= aotProgram(runner, join(work, 'aot')));

describe('tracker contract (C# managed tracker, mono JIT, a German device)', () => {
  let outcomes = new Map<string, Outcome>();
  beforeAll(() => {
    outcomes = play(runner, 'jit');
  }, 120_000);
  for (const file of files) it(file, () => expectPlayed(() => outcomes, file));
});

describe('tracker contract (C# managed tracker, mono full AOT: no JIT, as iOS and IL2CPP; a Turkish device)', () => {
  let outcomes = new Map<string, Outcome>();
  beforeAll(() => {
    outcomes = play(aot(), 'full-aot');
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

/**
 * The same scenarios on phones (Application.isMobilePlatform: only the pause is the background, focus also goes to
 * the game's own keyboard), with the messages in the orders Unity sends them there: iOS (full AOT, as its players
 * are) loses focus then pauses, and ends the pause then regains focus; Android (JIT, a Mono-backend player) pauses
 * without a focus message when Home is pressed with the game's keyboard open (Unity's ScriptReference,
 * MonoBehaviour.OnApplicationFocus), and its return may bring focus before the pause ends.
 */
describe('tracker contract on phones (C# managed tracker: the pause is the background)', () => {
  const everyScenario = async (outcomes: Map<string, Outcome>) => {
    for (const file of files) await expectPlayed(() => outcomes, file);
  };
  it('Android (mono JIT, an ar-SA device): every scenario holds, Home with the keyboard open, focus back before the pause ends', () => everyScenario(play(runner, 'jit', 'android', 'ar_SA.UTF-8')), 120_000);
  it('iOS (mono full AOT, an fa-IR device): every scenario holds', () => everyScenario(play(aot(), 'full-aot', 'ios', 'fa_IR.UTF-8')), 300_000);
  // Not a phone: a desktop player with Run In Background on, whose frames go on without focus (no pause), as a page's do.
  it('a desktop player with Run In Background on (mono JIT, a German device): every scenario holds', () => everyScenario(play(runner, 'jit', 'desktop-run-in-background')), 120_000);
});
