/**
 * Two copies of a desktop game at once for the same player on one persistentDataPath (two mono processes of
 * csharp/InstancesProbe.cs, driven step by step): the second copy's start-up must leave the first copy's running
 * session alone (its run's alive lock is held), the first copy then delivers its whole session once; and a copy
 * killed without quitting (the OS releases its lock) is recovered by the next start-up, its lock file removed. The
 * player's off switch in one copy reaches the other, as in another tab (core/tracker/tracker.ts syncChoice).
 * Played under mono JIT (the Editor, desktop Mono players) and full AOT (IL2CPP players).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { aotProgram } from '../../contract/cs-runner/mono.js';
import { compileDeviceProbe } from './device-probe.js';
import { MonoInstance } from './mono-instance.js';

const work = mkdtempSync(join(tmpdir(), 'unity-instances-'));
const exe = join(work, 'jit', 'instances.exe');
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(() => compileDeviceProbe(exe, 'InstancesProbe'), 120_000);

const running: MonoInstance[] = [];
afterEach(() => {
  for (const instance of running.splice(0)) instance.kill();
});

/** The files under `folder` whose parent folder is `part` (`running`, `alive`), by name. */
function filesIn(folder: string, part: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && relative(folder, entry.parentPath).split(/[\\/]/).pop() === part)
    .map((entry) => entry.name)
    .sort();
}

/** What a relay answered SUCCESS for, as "sessionId player durationSeconds". */
function received(answer: Record<string, unknown>): string[] {
  return answer['received'] as string[];
}

/** A function starting a process of `program` on the device folder `device` (killed after the test if still running). */
function launcher(mode: 'jit' | 'full-aot', program: string, device: string): () => MonoInstance {
  return () => {
    const options = mode === 'full-aot' ? ['--full-aot'] : [];
    const env = mode === 'full-aot' ? { ...process.env, MONO_PATH: join(program, '..') } : process.env;
    const instance = new MonoInstance(options, program, [device], env);
    running.push(instance);
    return instance;
  };
}

/** Starts a session and plays 20 s in two frames (checkpoints at 1 s and 15 s: its record on disk says 15 s); its id. */
async function play20s(instance: MonoInstance): Promise<string> {
  const sessionId = (await instance.send('start'))['sessionId'] as string;
  await instance.send('pass 15000');
  await instance.send('pass 5000');
  return sessionId;
}

/** Runs `commands`, then the process's report; what its relay received is added to `delivered`. */
async function reportAfter(instance: MonoInstance, commands: string[], delivered: string[]): Promise<Record<string, unknown>> {
  for (const command of commands) await instance.send(command);
  const report = await instance.send('report');
  delivered.push(...received(report));
  return report;
}

async function twoCopies(mode: 'jit' | 'full-aot', program: string): Promise<void> {
  const device = join(work, mode, 'device');
  const start = launcher(mode, program, device);
  const delivered: string[] = [];

  // Copy A plays 20 s: its running record is on disk (checkpointed at 1 s and 15 s).
  const a = start();
  await a.send('init p1');
  const first = await play20s(a);
  expect(filesIn(device, 'running')).toEqual([`${first}.json`]);

  // Copy B starts for the same player while A plays: A's session is not B's to recover, nor to delete.
  const b = start();
  const bSaw = await reportAfter(b, ['init p1', 'flush'], delivered);
  expect(received(bSaw)).toEqual([]);
  expect(bSaw['ended']).toEqual([]);
  expect(filesIn(device, 'running')).toEqual([`${first}.json`]);
  expect(filesIn(device, 'alive')).toHaveLength(2); // A's lock and B's

  // A stops after 120 s of play: its whole session goes out, once.
  const aSaw = await reportAfter(a, ['pass 100000', 'stop', 'flush'], delivered);
  expect(received(aSaw)).toEqual([`${first} p1 120`]);
  expect(filesIn(device, 'running')).toEqual([]);

  // A plays a second session and is killed without quitting (last checkpoint at 15 s); B quits.
  const second = await play20s(a);
  await a.killed();
  await b.quit();
  expect(filesIn(device, 'running')).toEqual([`${second}.json`]);

  // The next start-up recovers A's session (its lock was released by the OS) and removes the dead runs' lock files.
  const c = start();
  const cSaw = await reportAfter(c, ['init p1', 'flush'], delivered);
  expect(received(cSaw)).toEqual([`${second} p1 15`]);
  expect(cSaw['ended']).toEqual([`${second} recovered 15`]);
  expect(filesIn(device, 'running')).toEqual([]);
  const cLock = filesIn(device, 'alive');
  expect(cLock).toHaveLength(1); // C's own

  // Init again in the same process (the Editor, or a new player signing in): the last run releases its lock and
  // deletes its file once its session is stored; the new run holds its own.
  await c.send('init p1');
  expect(filesIn(device, 'alive')).toHaveLength(1);
  expect(filesIn(device, 'alive')).not.toEqual(cLock);
  await c.quit();

  // The service records a session id once: each session reached it once, with its whole play time.
  expect(delivered).toEqual([`${first} p1 120`, `${second} p1 15`]);
}

/**
 * The player switches recording off in copy B while copy A plays (decision row "The off switch in another tab"): A reads
 * the stored choice at its next checkpoint tick and drops its running session (opted-out), records and sends nothing
 * more; switched back on in B, A's next flush trigger reads it and A records and sends again.
 */
async function offSwitchInOtherCopy(mode: 'jit' | 'full-aot', program: string): Promise<void> {
  const start = launcher(mode, program, join(work, mode, 'off-switch'));
  const a = start();
  await a.send('init p1');
  const b = start();
  await b.send('init p1');
  const played = await play20s(a);
  await b.send('optout true');
  const aSaw = await reportAfter(a, ['pass 15000', 'stop', 'flush'], []);
  expect(received(aSaw)).toEqual([]);
  expect(aSaw['dropped']).toEqual([`${played} opted-out`]);
  expect((await a.send('start'))['sessionId']).toBe('');
  await b.send('optout false');
  await a.send('pass 30000'); // the flush interval: opted out, A reads the choice instead of flushing
  const again = await play20s(a);
  expect(again).not.toBe('');
  expect(received(await reportAfter(a, ['stop', 'flush'], []))).toEqual([`${again} p1 20`]);
  await a.quit();
  await b.quit();
}

describe('two copies of a desktop game for one player', () => {
  it('mono JIT: a live copy is left alone, a killed one recovered once', () => twoCopies('jit', exe), 240_000);
  it('mono full AOT: the same', () => twoCopies('full-aot', aotProgram(exe, join(work, 'aot'))), 600_000);
  it('mono JIT: the off switch in one copy reaches the other', () => offSwitchInOtherCopy('jit', exe), 240_000);
  it('mono full AOT: the off switch the same', () => offSwitchInOtherCopy('full-aot', aotProgram(exe, join(work, 'aot-off'))), 600_000);

  it('on a device that cannot lock, runs without a lock file and says so; the other copy recovers as before (one copy assumed)', async () => {
    const device = join(work, 'cannot-lock', 'device');
    const start = launcher('jit', exe, device);
    const a = start();
    await a.send('cannot-lock');
    await a.send('init p1');
    const first = await play20s(a);
    expect(a.written).toContain('warning: Game Campaign: this device cannot lock files (Permission denied)');
    expect(filesIn(device, 'alive')).toEqual([]);
    expect(received(await reportAfter(start(), ['init p1', 'flush'], []))).toEqual([`${first} p1 15`]);
  }, 240_000);
});
