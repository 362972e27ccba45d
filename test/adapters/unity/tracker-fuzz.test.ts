/**
 * Random runs of the managed tracker (csharp/TrackerFuzzProbe.cs on mono, playing steps through the contract's C#
 * runner): kills, quits, restarts as two players, relay answers in and outside the spec, clock moves, the background,
 * the off switch, erasure and overflow, plain, on a disk that fills up and empties (writes refused, deletes working),
 * and with power losses damaging every file. Whatever happened: no session is both recorded by the relay and reported
 * dropped, every recorded session was heard ending, nothing but the players' choices is left on the device, and
 * without storage failures every session of 1 s or more is recorded or reported dropped. Fixed seeds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { csFiles, mcs, packageSources, runMono } from '../../contract/cs-runner/mono.js';

const work = mkdtempSync(join(tmpdir(), 'unity-tracker-fuzz-'));
const exe = join(work, 'fuzz.exe');
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(() => {
  mcs(['-target:exe', '-main:TrackerFuzzProbe', `-out:${exe}`, ...packageSources(), ...csFiles(join(import.meta.dirname, '../../contract/cs-runner')), join(import.meta.dirname, 'csharp/TrackerFuzzProbe.cs')]);
}, 120_000);

for (const mode of ['plain', 'full', 'truncate'] as const) {
  it(`${mode}: 100 random runs keep every session recorded once or dropped, never both, and leave nothing behind`, () => {
    const { status, stdout, stderr } = runMono(exe, [mode, '0', '100'], 'jit', 'tr_TR.UTF-8');
    expect(status, stderr).toBe(0);
    const report = JSON.parse(stdout) as { runs: number; steps: number; problems: string[] };
    expect(report.problems).toEqual([]);
    expect(report.runs).toBe(100);
    expect(report.steps).toBeGreaterThan(100 * 20);
  }, 240_000);
}
