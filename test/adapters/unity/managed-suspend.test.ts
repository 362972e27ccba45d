/**
 * A phone's pause (csharp/ManagedSuspendProbe.cs on mono, JIT and full AOT): Unity runs no main-thread code while the
 * app is paused and the OS may kill it there, so what the pause keeps is on disk when OnApplicationPause returns.
 * Sessions held in memory (their writes refused by a full disk that has room again) are all written then, not only the
 * first; the next start-up sends each once. A pause while a flush reads a long backlog from a slow disk still writes its
 * checkpoint (the read goes in slices), and a choice switched off just before the pause is on disk by then. A desktop
 * player with Run In Background on, whose frames go on without focus, sends as the network returns there.
 * csharp/ManagedStartUpPauseProbe.cs: the same checkpoint while a start-up takes in another data path's backlog or
 * deletes another player's expired one, a checkpoint writes many held sessions, or a flush deletes many answered ones.
 * csharp/ManagedDropPauseProbe.cs: a pause (then a kill) while a drop's file work runs on the worker, its report left to
 * a main-thread step: the next launch tells the game (DroppedFiles); an erasure deletes dropped files not yet deleted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { aotProgram, runMono } from '../../contract/cs-runner/mono.js';
import { deviceProbeOnce } from './device-probe.js';

const work = mkdtempSync(join(tmpdir(), 'unity-managed-suspend-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const probe = deviceProbeOnce(join(work, 'suspend.exe'), 'ManagedSuspendProbe');

function played(exe: string, mode: 'jit' | 'full-aot'): void {
  const { status, stdout, stderr } = runMono(exe, [join(work, `device-${mode}`)], mode);
  expect(status, stderr).toBe(0);
  // Both held sessions on disk as the pause returns (before: the first only, the 7 s session lost with the app).
  // A desktop window behind another (Run In Background on) runs its frames: the network's return there sends at once.
  // The pause's checkpoint (20 s) written while a flush reads a long backlog from a slow disk (before: the 15 s one, the
  // pause's write behind the whole read). A choice switched off just before the pause is stored by then (before: not, and
  // the next launch recorded and sent). A desktop player on a full disk that stops and switches window in one frame sends the
  // session at the background flush (before: the flush listed the queue before the session was indexed, nothing sent).
  expect(JSON.parse(stdout)).toEqual({
    heldQueuedAtPause: 2,
    heldReceived: ['held-pause 5', 'held-pause 7'],
    heldLeft: 0,
    slowReadPausedPlayedMs: 20000,
    optOutAtPause: 'opted out',
    optOutReceived: 0,
    unfocusedNetwork: '0 1 background',
    fullDiskLeaveReceived: 1,
  });
}

it('a phone paused and killed: held sessions, the checkpoint behind a long read and a choice just switched off are on disk as the pause returns', () => played(probe(), 'jit'), 120_000);

// iOS and IL2CPP players run no JIT: the same fully ahead of time.
it('mono full AOT: the same', () => played(aotProgram(probe(), join(work, 'aot')), 'full-aot'), 600_000);

const startUpProbe = deviceProbeOnce(join(work, 'start-up-pause.exe'), 'ManagedStartUpPauseProbe');

function pausedDuringBacklog(exe: string, mode: 'jit' | 'full-aot'): void {
  const { status, stdout, stderr } = runMono(exe, [join(work, `start-up-${mode}`)], mode);
  expect(status, stderr).toBe(0);
  // The pause's checkpoint on disk as OnApplicationPause returns while a start-up takes in another data path's 400
  // files (before: no record at all, the session lost with the kill), while it forgets 400 marks of originals taken in
  // earlier (before: no record either: the marks' deletes were one file job), while it deletes 400 originals another path's
  // run took in and marked (before: no record: one file job), while a checkpoint writes 100 held sessions
  // (before: 15 s, the checkpoint before) and while a start-up deletes another player's 400 expired sessions (before: 0).
  // The next launch sends the recovered 5 s session and the whole backlog, and deletes what expiry left; each of the 400
  // expired sessions was told to the game as dropped over the two launches (before: fewer, the ones the slices before
  // the kill deleted gone unreported); one judged to go before such a kill is told by its own player's start-up too. The
  // pause's checkpoint also while a flush deletes again 400 answered sessions whose deletes storage refused (before: 15 s).
  expect(JSON.parse(stdout)).toEqual({
    adoptingPausedPlayedMs: 5000,
    adoptingReceived: 401,
    adoptingRecovered: 1,
    forgettingPausedPlayedMs: 5000,
    takenPausedPlayedMs: 5000,
    heldPausedPlayedMs: 20000,
    expiringPausedPlayedMs: 5000,
    expiredLeft: 0,
    expiredTold: 400,
    ownJudgedTold: ['expired'],
    ownJudgedLeft: 0,
    answeredUndeleted: 400,
    answeredPausedPlayedMs: 20000,
  });
}

it('a phone paused and killed while start-up adopts or expires a long backlog, a checkpoint writes many held sessions or a flush deletes many answered ones: the pause\'s checkpoint is on disk', () => pausedDuringBacklog(startUpProbe(), 'jit'), 180_000);

it('mono full AOT: the same (start-up backlogs)', () => pausedDuringBacklog(aotProgram(startUpProbe(), join(work, 'aot-start-up')), 'full-aot'), 600_000);

const dropProbe = deviceProbeOnce(join(work, 'drop-pause.exe'), 'ManagedDropPauseProbe');

function pausedWhileDropping(exe: string, mode: 'jit' | 'full-aot'): void {
  const { status, stdout, stderr } = runMono(exe, [join(work, `drop-${mode}`)], mode);
  expect(status, stderr).toBe(0);
  // A pause while an overflow eviction, the removal of a session the relay refused or of a recovered session's record
  // dropped at start-up runs on the file worker, then a
  // kill: the next launch tells the game of the drop (before: neither the session nor its report was left, the file
  // deleted before the pause returned and the report left to a main-thread step the paused app never ran). An erasure
  // deletes the files of drops whose deletes storage refused (before: the dropped file stayed on the device). Dropped
  // files a kill left on Android's other data path are taken in, told and deleted by the start-up (before: left there,
  // told only when Unity gave that path back). Dropped files of session ids with dots or `.json` in them are told with
  // their own id and reason (before: cut at the first `.json`, told as `s` with reason `json.too-short`). A second copy of
  // a desktop game leaves the drops the first copy's live run is telling (before: told by both).
  expect(JSON.parse(stdout)).toEqual({
    evictedQueuedAtKill: 2,
    evictedTold: ['overflow'],
    evictedLeft: 2,
    refusedQueuedAtKill: 0,
    refusedTold: ['rejected'],
    refusedReceived: 0,
    refusedLeft: 0,
    recoveredToldBeforeKill: [],
    recoveredTold: ['too-short'],
    recoveredLeft: 0,
    erasingLeftBefore: 3,
    erasedTold: ['overflow', 'erased', 'erased', 'erased'],
    erasedLeft: 0,
    otherPathErasedTold: ['erased'],
    otherPathLeft: 0,
    otherPathDropsTold: ['overflow', 'too-short'],
    otherPathDropsLeft: 0,
    oddNamesTold: ['a.b.c too-short', 's.json too-short'],
    oddNamesLeft: 0,
    liveCopyToldBySecond: [],
    liveCopyLeft: 1,
    goneCopyTold: ['overflow'],
    goneCopyLeft: 0,
  });
}

it('a phone paused and killed while an overflow evicts a session, a refused session is removed or a recovered one\'s record is deleted: the next launch tells the game; an erasure leaves no dropped file', () => pausedWhileDropping(dropProbe(), 'jit'), 180_000);

it('mono full AOT: the same (drops at a pause)', () => pausedWhileDropping(aotProgram(dropProbe(), join(work, 'aot-drop')), 'full-aot'), 600_000);
