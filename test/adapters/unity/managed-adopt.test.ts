/**
 * An Android player's other persistentDataPath taken in (TrackerFiles.AdoptionOf, AdoptOne, EndAdoption; AliveLock), hostile cases found by p34
 * (csharp/ManagedAdoptProbe.cs on mono): originals the other path's run took (marked `.adopted` there) are not sent
 * again when Unity gives their own path back; writes' temporary files dated in the future by a wrong clock are swept;
 * a run taking its alive lock while another process cleans that folder's dead runs' locks, or a start-up looks at
 * them, keeps its lock file, one starting there during an adoption keeps its running session, and a dead run's lock
 * that cleanup deletes is never claimed by two start-ups at once, nor one a start-up lets go of after its recovery,
 * and a start-up that read a dead run's records just before another recovered them recovers none (processes racing,
 * POSIX file semantics: mono's sharing modes are per process, and an open, locked file can be unlinked).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { runMono } from '../../contract/cs-runner/mono.js';
import { deviceProbeOnce } from './device-probe.js';
import { MonoInstance } from './mono-instance.js';

const work = mkdtempSync(join(tmpdir(), 'unity-managed-adopt-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const running: MonoInstance[] = [];
afterEach(() => {
  for (const instance of running.splice(0)) instance.kill();
});

/** A process of csharp/ManagedAdoptProbe.cs serving commands (killed after the test if still running). */
function serving(first: string, second: string): MonoInstance {
  const instance = new MonoInstance([], probe(), ['serve', first, second], process.env);
  running.push(instance);
  return instance;
}

/** csharp/ManagedAdoptProbe.cs, compiled once. */
const probe = deviceProbeOnce(join(work, 'adopt.exe'), 'ManagedAdoptProbe');

function story(name: 'taken-original' | 'clock-temp'): unknown {
  const { status, stdout, stderr } = runMono(probe(), [name, join(work, `${name}-external`), join(work, `${name}-internal`)], 'jit');
  expect(status, stderr).toBe(0);
  return JSON.parse(stdout);
}

it("Android's other data path: originals it took but could not delete are not sent again when Unity gives their path back", () => {
  // The second run copies the first path's queued 4 s session and the killed run's running one in, cannot delete the
  // originals (marks its copies), recovers and sends both. Then Unity gives the first path again. Before, that run found
  // the originals in its own folder, recovered the running one a second time ('ended recovered 1') and sent both again
  // (one more request, answered SKIPPED), and the marks stayed.
  expect(story('taken-original')).toEqual({
    secondRun: ['ended recovered 1'],
    secondRunReceived: ['mover 4', 'mover 1'],
    originalsLeft: 2,
    marksOnSecondPath: 2,
    thirdRun: [],
    thirdRunRequests: 0,
    received: ['mover 4', 'mover 1'],
    stored: 0,
    marksLeft: 0,
  });
}, 120_000);

it("writes' temporary files a kill left while the clock was set ahead are swept once it is right (here and on the other path)", () => {
  // Before, a file last written "two years from now" was never older than a minute: kept until the clock got there.
  // One written just now (another copy of the game mid-write) stays.
  expect(story('clock-temp')).toEqual({ futureLeft: [], writingKept: true });
}, 120_000);

it("a run taking its alive lock on the other path while an adopting run cleans that folder keeps its lock file (POSIX)", async () => {
  const first = join(work, 'lock-external');
  const second = join(work, 'lock-internal');
  const start = (): MonoInstance => serving(first, second);
  const adopter = start();
  const player = start();
  // The player's run on the first path has made its lock file and is about to lock it; the run on the second path
  // adopts from the first path meanwhile (the folder looks free, so it cleans the dead runs' locks there).
  await player.send(`take-paused ${first}`);
  expect(await adopter.send(`adopt ${second} ${first}`)).toEqual({ runningHere: 0 });
  // The player's run locks its file and writes its running record.
  expect(await player.send(`go ${first}`)).toEqual({ took: true, lockFiles: ['runB.lock'] });
  await player.send(`record ${first}`);
  // A later adoption (the next Init, an erasure) sees the run alive and leaves its running session with it. Before, the
  // cleanup had unlinked the lock file the run was about to lock (mono's FileShare is per process, so the open
  // succeeded; unlink of an open file succeeds on POSIX): the run held a lock on a file no other process could see, its
  // lock file was gone (lockFiles: []), and the next adoption took its running record (runningHere: 1), recovered and sent
  // while that run went on playing.
  expect(await adopter.send(`adopt ${second} ${first}`)).toEqual({ runningHere: 0 });
  await player.send('quit');
  await adopter.send('quit');
}, 120_000);

it("a run taking its alive lock while another copy's start-up looks at that folder's locks keeps its lock (POSIX)", async () => {
  // Two copies of a desktop game on one folder (or an Android run's other path): the first copy's start-up lists the
  // lock files and tries to take each (OfGoneRuns) just as the second copy's run has made its file and not yet locked it.
  const folder = join(work, 'startup-desktop');
  const player = serving(folder, folder);
  const starting = serving(folder, folder);
  await player.send(`take-paused ${folder}`);
  expect(await starting.send(`claim ${folder}`)).toEqual({ gone: 0 });
  // Before, the start-up took the free lock of the file just made (claimed as a dead run's): the run's own Lock failed,
  // so it deleted its file, logged "this device cannot lock files" and ran with no lock for its whole life (took: false,
  // lockFiles: []), its running sessions open to any later start-up's recovery while it played.
  expect(await player.send(`go ${folder}`)).toEqual({ took: true, lockFiles: ['runB.lock'] });
  for (const instance of [player, starting]) await instance.send('quit');
}, 120_000);

it("a run that starts on the other path while an adoption is under way there keeps its running session", async () => {
  const first = join(work, 'late-external');
  const second = join(work, 'late-internal');
  const adopter = serving(first, second);
  const player = serving(first, second);
  // The adoption has found no run alive on the first path and is about to list its running records; a run starts
  // there just then (its lock taken first, as every run's is) and writes its running record.
  await adopter.send(`adopt-paused ${second} ${first}`);
  expect(await player.send(`take ${first}`)).toEqual({ took: true });
  await player.send(`record ${first}`);
  await adopter.send(`go ${second}`);
  // The live run's record stays with it. Before, the alive-lock check was made once, before the adoption began: the
  // record was copied here (where its run has no lock file: recovered as a dead run's and sent while it played) and
  // deleted there.
  expect(await adopter.send(`running ${second}`)).toEqual({ running: 0 });
  expect(await player.send(`running ${first}`)).toEqual({ running: 1 });
  for (const instance of [adopter, player]) await instance.send('quit');
}, 120_000);

/**
 * A killed run's running record and free lock file on `folder`; `prepare` runs on the process that will delete that lock
 * file, then `pause` stops it just before the delete; a start-up on `folder` looks at the dead run's lock then, a second
 * one once the file is deleted. Only one of them may take the run for gone (recover its session).
 */
async function oneStartUpRecovers(folder: string, other: string, prepare: string | undefined, pause: string): Promise<void> {
  const deleting = serving(folder, other);
  const early = serving(folder, other);
  const late = serving(folder, other);
  await early.send(`record ${folder}`);
  await early.send(`dead-lock ${folder}`);
  if (prepare) expect(await deleting.send(prepare)).toEqual({ gone: 1 });
  await deleting.send(pause);
  expect(await early.send(`claim ${folder}`)).toEqual({ gone: 0 });
  expect(await deleting.send(`go ${folder}`)).toEqual({ took: false, lockFiles: [] });
  expect(await late.send(`claim ${folder}`)).toEqual({ gone: 1 });
  for (const instance of [deleting, early, late]) await instance.send('quit');
}

it("a dead run's lock file the adopting run deletes is never claimed by two start-ups on that path at once", async () => {
  // The run on the second path deletes the dead run's lock file on the first (DeleteDead). Before, the lock was closed
  // before its file was deleted: the first start-up took it (gone: 1) and held it on a file unlinked under it, and the
  // second found no lock file (gone: 1): both recovered the same session, which ended twice.
  const first = join(work, 'claim-external');
  await oneStartUpRecovers(first, join(work, 'claim-internal'), undefined, `delete-dead-paused ${first}`);
}, 120_000);

it("a dead run's lock a start-up lets go of after recovering is never claimed by two later start-ups at once", async () => {
  // A start-up claims the dead run's lock and recovers its record, which stays where it was (the disk full, say: kept
  // for a later start-up), then lets the lock go (Release). Before (found by p36), Release closed the lock before
  // deleting its file: the second start-up took the freed lock (gone: 1) on a file then unlinked under it, the third
  // found no lock file (gone: 1), and both recovered the same session, which ended twice.
  const folder = join(work, 'release-desktop');
  await oneStartUpRecovers(folder, folder, `claim ${folder}`, 'release-paused');
}, 120_000);

it("a session queued by a run that starts on the other path during an adoption moves here and is sent from here only", async () => {
  const first = join(work, 'late-queue-external');
  const second = join(work, 'late-queue-internal');
  const adopter = serving(first, second);
  const player = serving(first, second);
  // The adoption has found no run alive on the first path and is about to list its queue; a run starts there just then
  // and queues a session (its lock first, as every run's).
  await adopter.send(`adopt-paused ${second} ${first} queue`);
  expect(await player.send(`take ${first}`)).toEqual({ took: true });
  await player.send(`enqueue ${first}`);
  await adopter.send(`go ${second}`);
  // The session is queued once, here; the run that queued it finds its file gone when its flush reads it and forgets
  // it (nothing sent from there, nothing reported dropped or damaged), so it is sent once, by this run.
  expect(await adopter.send(`queued ${second}`)).toEqual({ queued: 1 });
  expect(await player.send(`queued ${first}`)).toEqual({ queued: 0 });
  expect(await player.send('flush-read')).toEqual({ read: 0, heard: [], queuedInMemory: 0 });
  for (const instance of [adopter, player]) await instance.send('quit');
}, 120_000);

it("a start-up that read a dead run's records just before another start-up recovered them and let go of its lock recovers none of them", async () => {
  // Two copies of a desktop game starting at once on one folder where a killed run left a running session and its free
  // lock file. The first has read the running records and is about to claim their runs' locks; the second starts
  // all through (Init): claims the dead run's lock, recovers its session (sent, the record deleted) and lets the lock
  // go (its file deleted; only its own run's stays).
  const folder = join(work, 'reread-desktop');
  const early = serving(folder, folder);
  const other = serving(folder, folder);
  await early.send(`record ${folder}`);
  await early.send(`dead-lock ${folder}`);
  expect(await early.send(`read ${folder}`)).toEqual({ read: 1 });
  expect(await other.send(`init ${folder}`)).toEqual({ events: ['ended recovered 1'], received: ['mover 1'], running: 0, lockFiles: 1 });
  // The first start-up now finds no lock file: the run is gone. Before, it recovered what it had read, a record no
  // longer stored (gone: 1): the session ended a second time (`session:end` told twice, the game counting its play time
  // twice) and was sent again (answered SKIPPED).
  expect(await early.send(`claim-read ${folder}`)).toEqual({ gone: 0 });
  for (const instance of [early, other]) await instance.send('quit');
}, 120_000);
