/**
 * Tracker.Listen on several threads at once (csharp/TrackerListenThreadsProbe.cs), as two Inits on two threads run
 * it: the tracker stays subscribed to the bridge's events once, so a game's SessionStarted handler hears each event
 * once. Unlocked, the remove-then-add pair interleaved (both removed, both added) in about 4 of 3,000 rounds of four
 * threads on mono JIT, and every later event was raised twice. Under mono JIT (the Editor) and full AOT (IL2CPP).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { aotProgram, mcs, packageSources, runMono } from '../../contract/cs-runner/mono.js';

const work = mkdtempSync(join(tmpdir(), 'unity-listen-threads-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let compiled: string | undefined;
function probe(): string {
  if (compiled) return compiled;
  const exe = join(work, 'listen-threads.exe');
  mcs(['-target:exe', `-out:${exe}`, ...packageSources(), join(import.meta.dirname, 'csharp/HandNative.cs'), join(import.meta.dirname, 'csharp/TrackerListenThreadsProbe.cs')]);
  return (compiled = exe);
}

function hammered(exe: string, mode: 'jit' | 'full-aot'): void {
  const { status, stdout, stderr } = runMono(exe, [], mode);
  expect(status, stderr).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ rounds: 3000, heardOnce: 3000, heardOtherwise: 0 });
}

it('Listen on four threads at once leaves one subscription: each event heard once', () => hammered(probe(), 'jit'), 120_000);
it('mono full AOT: the same', () => hammered(aotProgram(probe(), join(work, 'aot')), 'full-aot'), 600_000);
