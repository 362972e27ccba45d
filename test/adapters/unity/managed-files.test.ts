/**
 * The managed tracker's file work under two copies of the game and a moved device clock, on mono JIT and full AOT
 * (csharp/ManagedFilesProbe.cs): two writers of the player's opt-out choice at once each write through a temporary
 * file of their own; the file worker's wait (a pause waiting for its checkpoint, a quit for its writes) is timed by a
 * monotonic clock, so a wall clock moved 2 h ahead or back (csharp/clockshift.c, preloaded) neither ends it at once
 * nor stretches it; and a queue that an erasure on a read-only disk merged with a session another copy queued stays
 * oldest first.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { aotProgram, runMono } from '../../contract/cs-runner/mono.js';
import { deviceProbeOnce } from './device-probe.js';

const work = mkdtempSync(join(tmpdir(), 'unity-managed-files-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const probe = deviceProbeOnce(join(work, 'files.exe'), 'ManagedFilesProbe');

let shim: string | undefined;
function clockShift(): string {
  if (shim) return shim;
  const library = join(work, 'clockshift.so');
  execFileSync('gcc', ['-shared', '-fPIC', '-O2', '-o', library, join(import.meta.dirname, 'csharp/clockshift.c'), '-ldl']);
  return (shim = library);
}

it('two writers of the opt-out, a wait while the clock moves, the order after an erasure (JIT)', () => played(probe(), 'jit'), 120_000);

it('mono full AOT: the same', () => played(aotProgram(probe(), join(work, 'aot')), 'full-aot'), 600_000);

function played(exe: string, mode: 'jit' | 'full-aot'): void {
  const { status, stdout, stderr } = runMono(exe, [join(work, `device-${mode}`)], mode, undefined, { LD_PRELOAD: clockShift() });
  expect(status, stderr).toBe(0);
  const report = JSON.parse(stdout) as Record<string, unknown>;

  // Before, both wrote through opt-out.json.tmp: one's move found the file moved away by the other (FileNotFoundException).
  expect(report).toMatchObject({ twoWritersFailures: 0, twoWritersFirstFailure: '', twoWritersChoice: 'a choice', twoWritersTemporaryLeft: 0 });
  // The preloaded clock did move; before, the jump ahead ended the wait with the write still under way (false), and the
  // jump back held it until the jobs were done 5 s later (true) instead of ending it at 500 ms.
  expect(report['clockMovedS']).toBe(2);
  expect(report['aheadResult']).toBe(true);
  expect(report['backResult']).toBe(false);
  // Before, b (older, found by the erasure's listing) was put after a, and a would be sent or evicted first.
  expect(report['eraseErrors']).toEqual(['UnauthorizedAccessException']);
  expect(report['orderAfterErase']).toEqual(['000000000003-b.json', '000000000005-a.json']);
}
