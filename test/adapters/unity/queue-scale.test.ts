/**
 * The managed tracker at 10,000 queued sessions (csharp/QueueScaleProbe.cs on mono): structure only, no timings
 * (bench/unity-queue.ts prints those). Start-up with 9,999 stored lists the folders and reads no session; stopping
 * the 10,000th writes one file (and deletes its running record) and reads none; sending them all reads each once (and
 * the player's choice once: another copy of the game may have switched it off).
 * No file operation runs on the main thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runMono } from '../../contract/cs-runner/mono.js';
import { compileDeviceProbe } from './device-probe.js';

const work = mkdtempSync(join(tmpdir(), 'unity-queue-scale-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('with 10,000 queued: Stop writes one file and reads none, at the cap evicts in O(1), start-up reads no session, nothing touches files on the main thread', () => {
  const exe = join(work, 'scale.exe');
  compileDeviceProbe(exe, 'QueueScaleProbe', { runner: [], helpers: [] });
  const { status, stdout, stderr } = runMono(exe, [join(work, 'device')], 'jit');
  expect(status, stderr).toBe(0);
  const report = JSON.parse(stdout) as Record<string, Record<string, number> | number>;
  const operations = (step: string) => {
    const { totalMs, worstMainThreadMs, callMs, ...counts } = report[step] as Record<string, number>;
    void totalMs, worstMainThreadMs, callMs; // timings: bench/unity-queue.ts
    return counts;
  };
  // The opt-out choice is the one file read; the running records and the queue are listed, not read.
  expect(operations('init')).toEqual({ lists: 2, reads: 1 });
  expect(operations('stop')).toEqual({ writes: 1, deletes: 1 });
  // At the cap each Stop evicts the oldest (read for its dropped event, deleted): the names passed to find it stay a
  // handful, not one more for every session evicted before (O(1) per Stop, as below the cap).
  // Each: the running record and the queued session written; the evicted session read, renamed and deleted once the game
  // was told (DroppedFiles: a kill between tells the next start-up), the running record deleted.
  expect(operations('overflow')).toEqual({ writes: 2 * 300, reads: 300, deletes: 3 * 300 });
  expect(report).toMatchObject({ overflowDropped: 300 });
  expect(report['overflowWorstNamesVisited']).toBeLessThanOrEqual(3);
  expect(operations('flush')).toEqual({ reads: 1 + 10_000, deletes: 10_000 });
  expect(report).toMatchObject({ sends: 10, received: 10_000, left: 0 });
}, 120_000);
