/**
 * The Unity package's managed tracker at 10,000 queued sessions, on mono in full-AOT mode (no JIT, as iOS and
 * IL2CPP run it): how long the main thread works in one go (one posted callback: what a frame would spend on it)
 * while starting up with 9,999 sessions stored, stopping the 10,000th, and sending them all; and the file
 * operations each step does. Figures only, never asserted (test/adapters/unity/queue-scale.test.ts asserts the
 * structure). Run: node --import tsx bench/unity-queue.ts [runs]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aotProgram, mcs, packageSources, runMono } from '../test/contract/cs-runner/mono.js';

const ROOT = join(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 5);
const work = mkdtempSync(join(tmpdir(), 'unity-queue-bench-'));
try {
  const exe = join(work, 'jit', 'scale.exe');
  const runner = join(ROOT, 'test/contract/cs-runner');
  mcs(['-target:exe', `-out:${exe}`, ...packageSources(), join(runner, 'MainLoop.cs'), join(runner, 'FakeRelay.cs'), join(ROOT, 'test/adapters/unity/csharp/QueueScaleProbe.cs')]);
  const aot = aotProgram(exe, join(work, 'aot'));
  const rows: Record<string, number[]> = {};
  for (let run = 0; run < runs; run++) {
    const device = mkdtempSync(join(work, 'device-'));
    const { status, stdout, stderr } = runMono(aot, [device], 'full-aot');
    if (status !== 0) throw new Error(`probe failed (${status}): ${stdout}${stderr}`);
    const report = JSON.parse(stdout) as Record<string, Record<string, number>>;
    for (const step of ['init', 'stop', 'flush']) {
      for (const [name, value] of Object.entries(report[step]!)) (rows[`${step}.${name}`] ??= []).push(value);
    }
    rmSync(device, { recursive: true, force: true });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`managed tracker, 10,000 queued, mono ${'full AOT'}, median of ${runs} runs`);
  for (const [name, values] of Object.entries(rows)) console.log(`${name.padEnd(28)} ${median(values).toFixed(2)} (max ${Math.max(...values).toFixed(2)})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
