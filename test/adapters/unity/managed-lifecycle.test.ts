/**
 * The managed tracker's Unity-specific promises, beyond what the contract's scenarios can say
 * (csharp/ManagedLifecycleProbe.cs on mono): focus loss alone pauses (desktop, Editor; also lost before Init, whatever the OnApplicationPause(false) Unity sends after Awake), not on a phone (its own
 * on-screen keyboard takes focus); the hidden object the game destroys is replaced; timers run once after frames stalled; calls from another thread run on the main thread; statics reset at
 * SubsystemRegistration (Enter Play Mode Options without a domain reload); a quit stores the running session before
 * the player exits, and a pause its checkpoint before the app is suspended; a replace or delete Windows refuses is tried again (a delete only for a sharing or lock violation); a damaged file is kept for inspection and reported once; a write
 * failing on a full disk leaves no temporary file, and a killed write's is deleted at the next start-up; bad options, and
 * metadata deeper than the relay takes, are a VALIDATION_ERROR; such metadata an older release stored is dropped, not a failed start-up; a 200 with malformed results delivers nothing; Init twice after a kill recovers at once; a replaced SDK's events stop; no request after Dispose, and the one in flight aborted (also through UnityWebRequest: csharp/ManagedAbortProbe.cs); a game's first call (Init) on another thread runs on the main thread (csharp/ManagedWorkerStartProbe.cs), also one made before BeforeSceneLoad from a game's SubsystemRegistration method (csharp/ManagedEarlyWorkerProbe.cs); an Android player's other data path taken in once, never from a run still playing there, whole after a move cut short, and erased with the player's data, an original that cannot be deleted not sent twice, dead runs' leftovers there deleted (csharp/ManagedDataPath*Probe.cs); a second player's Init without a restart, also with the first's flush in flight (csharp/ManagedPlayerSwitchProbe.cs);
 * the C# enums map every JavaScript drop reason and error kind both ways.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DROP_REASONS } from '../../../core/tracker/events.js';
import { aotProgram, runMono } from '../../contract/cs-runner/mono.js';
import { deviceProbeOnce } from './device-probe.js';

const work = mkdtempSync(join(tmpdir(), 'unity-managed-lifecycle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** core/tracker/events.ts TrackerErrorEvent['kind'], in its order. */
const ERROR_KINDS = ['auth', 'headers', 'storage', 'crypto', 'relay', 'lock', 'listener'];
const pascal = (name: string) => name.replace(/(^|-)(\w)/g, (_, __, letter: string) => letter.toUpperCase());

/** The probe compiled once; each mode plays it on a device folder of its own. */
const probe = deviceProbeOnce(join(work, 'lifecycle.exe'), 'ManagedLifecycleProbe');

it('pauses on focus loss, resets at SubsystemRegistration, stores on quit, keeps a damaged file, maps the names', () => played(probe(), 'jit'), 120_000);

// iOS and IL2CPP players run no JIT: the same promises fully ahead of time (the lenient JSON of events, the flush's depth check).
it('mono full AOT: the same', () => played(aotProgram(probe(), join(work, 'aot')), 'full-aot'), 600_000);

/** csharp/ManagedAbortProbe.cs, compiled once (a program of its own: see its header). */
const abortProbe = deviceProbeOnce(join(work, 'abort.exe'), 'ManagedAbortProbe');

it('Dispose aborts the flush request UnityWebRequest has in flight', () => aborted(abortProbe(), 'jit'), 120_000);
it('mono full AOT: Dispose aborts the flush request in flight', () => aborted(aotProgram(abortProbe(), join(work, 'aot-abort')), 'full-aot'), 600_000);

/** csharp/ManagedWorkerStartProbe.cs, compiled once (a program of its own: no SDK call made on the main thread before). */
const workerProbe = deviceProbeOnce(join(work, 'worker-start.exe'), 'ManagedWorkerStartProbe', { runner: [] });

it('a first call (Init) on another thread runs on the main thread', () => workerFirst(workerProbe(), 'jit'), 120_000);
it('mono full AOT: a first call on another thread runs on the main thread', () => workerFirst(aotProgram(workerProbe(), join(work, 'aot-worker')), 'full-aot'), 600_000);

/** csharp/ManagedEarlyWorkerProbe.cs, compiled once (a program of its own: ManagedLifecycleProbe is near full AOT's trampoline limit). */
// UNITY_EDITOR, as Unity compiles the package for the Editor (Bridge reads UnityEditor's Enter Play Mode Options there).
const earlyProbe = deviceProbeOnce(join(work, 'early-worker.exe'), 'ManagedEarlyWorkerProbe', { runner: [], defines: ['UNITY_EDITOR'] });

it("a first call (Init) on another thread before BeforeSceneLoad (a game's SubsystemRegistration) runs on the main thread", () => earlyCall(earlyProbe(), 'jit', 'worker'), 120_000);
it('mono full AOT: the same call before BeforeSceneLoad', () => earlyCall(aotProgram(earlyProbe(), join(work, 'aot-early')), 'full-aot', 'worker'), 600_000);
it("a player whose own SubsystemRegistration method (Init, tracker handlers) ran before the package's keeps its SDK", () => earlyCall(earlyProbe(), 'jit', 'player-order'), 120_000);
it('mono full AOT: the same player', () => earlyCall(aotProgram(earlyProbe(), join(work, 'aot-early')), 'full-aot', 'player-order'), 600_000);
it("the Editor reloading the domain as Play mode starts keeps the SDK a game's own earlier SubsystemRegistration method made", () => earlyCall(earlyProbe(), 'jit', 'editor-order'), 120_000);
it('mono full AOT: the same Editor order', () => earlyCall(aotProgram(earlyProbe(), join(work, 'aot-early')), 'full-aot', 'editor-order'), 600_000);

/**
 * "worker": the game's own SubsystemRegistration method calls Init from Task.Run after the package's resets ran: Init is
 * made on the main thread (its lifecycle GameObject too). Before, the bridge took the main thread's context only at
 * BeforeSceneLoad (its SubsystemRegistration reset dropped it): Init ran on the worker, which made the lifecycle
 * GameObject there (Unity's GameObject and persistentDataPath throw off the main thread).
 * "player-order": a built player (a fresh domain) where the game's method adds its handlers and calls Init on the main
 * thread before the package's SubsystemRegistration resets run. Before, those resets (meant for the Editor's Play mode
 * without a domain reload) disposed the SDK Init had just made and forgot its pending call and the game's handlers:
 * Init's Task never completed, Start/Stop/Flush failed NOT_INITIALIZED, nothing was recorded.
 * "editor-order": the same in the Editor entering Play mode with a domain reload (its default: statics are fresh there too).
 * Before, the resets ran in every Editor Play session and did the same damage.
 * Either way: every event is raised on the main thread to the game's handlers, every Task completes, the session is
 * delivered once.
 */
function earlyCall(exe: string, mode: 'jit' | 'full-aot', story: 'worker' | 'player-order' | 'editor-order'): void {
  const { status, stdout, stderr } = runMono(exe, [join(work, `device-early-${story}-${mode}`), story], mode);
  expect(status, stderr).toBe(0);
  expect(JSON.parse(stdout)).toEqual({
    lifecycleMadeOn: 'main',
    events: ['start main', 'end main', 'flushed main'],
    tasks: 'RanToCompletion RanToCompletion RanToCompletion RanToCompletion',
    received: [`early-${story} 3`],
  });
}

/** csharp/ManagedDataPathProbe.cs, compiled once (a program of its own). */
const dataPathProbe = deviceProbeOnce(join(work, 'data-path.exe'), 'ManagedDataPathProbe');

it("an Android player whose persistentDataPath changed sends what the other path holds, once, and keeps a player's opt-out", () => {
  const { status, stdout, stderr } = runMono(dataPathProbe(), [join(work, 'data-path-external'), join(work, 'data-path-internal')], 'jit');
  expect(status, stderr).toBe(0);
  // The first run (offline) left a 4 s session queued and a running one (killed 12 s in: its last checkpoint, the first, at 1 s)
  // under the first path, and another player's opt-out. The next run, given the other path, moves them into its own folder
  // at start-up: the running one is recovered, both are delivered once, the opted-out player stays opted out, and nothing
  // is left under the first path. Before, they waited under the first path until Unity gave it again (and the opted-out
  // player was tracked).
  expect(JSON.parse(stdout)).toEqual({
    firstRunStored: 2,
    secondRunEnded: ['recovered 1'],
    received: ['mover 4', 'mover 1'],
    leftOnFirstPath: 0,
    androidPaths: [
      '/data/data/com.example.game/files',
      '/storage/emulated/0/Android/data/com.example.game/files',
      '/data/user/10/com.example.game/files',
      '/storage/emulated/10/Android/data/com.example.game/files',
      '',
      '',
      '',
      '/storage/emulated/0/Android/data/com.example.game/files',
      '',
      '',
    ],
  });
}, 120_000);

/** csharp/ManagedDataPathRaceProbe.cs, compiled once (a program of its own). */
const raceProbe = deviceProbeOnce(join(work, 'data-path-race.exe'), 'ManagedDataPathRaceProbe');

function race(story: 'alive' | 'cut' | 'erase' | 'stuck' | 'stuck-unmounted'): unknown {
  const { status, stdout, stderr } = runMono(raceProbe(), [story, join(work, `race-${story}-external`), join(work, `race-${story}-internal`)], 'jit');
  expect(status, stderr).toBe(0);
  return JSON.parse(stdout);
}

it("Android's other data path: a run still playing there (its alive lock held) keeps its files until it is gone", () => {
  // The first path's run goes on in another process (a 4 s session queued, one running): the run on the second path
  // takes nothing from it. Before, its running record was moved and recovered here ('recovered 1' sent) while that run
  // went on, so its play was counted twice. Once it is gone, the next start-up takes both, each sent once.
  expect(race('alive')).toEqual({
    secondRun: [],
    secondRunReceived: [],
    leftOnFirstPath: 2,
    thirdRun: ['ended recovered 1'],
    received: ['mover 4', 'mover 1'],
    stored: 0,
    filesOnFirstPath: [],
  });
}, 120_000);

it("Android's other data path: a move cut short (a partial copy under the session's name) loses nothing", () => {
  // Before, the partial copy here counted as the session and the whole original was deleted: the copy was set aside as
  // unreadable ('error storage') and the 4 s session never sent.
  expect(race('cut')).toEqual({
    secondRun: [],
    secondRunReceived: ['mover 4'],
    leftOnFirstPath: 0,
    thirdRun: [],
    received: ['mover 4'],
    stored: 0,
    filesOnFirstPath: [],
  });
}, 120_000);

it("Android's other data path: a player's erasure also erases what it holds (out of reach at start-up)", () => {
  // Before, the erased player's session under the other path was moved in and sent by the next start-up.
  expect(race('erase')).toEqual({
    secondRun: ['dropped erased'],
    secondRunReceived: [],
    leftOnFirstPath: 0,
    thirdRun: [],
    received: [],
    stored: 0,
    filesOnFirstPath: [],
  });
}, 120_000);

/** An original the second run could not delete after its copy: sent once, and nothing left on its path in the end. */
const SENT_ONCE_ORIGINAL_KEPT = {
  secondRun: [],
  secondRunReceived: ['mover 4'],
  leftOnFirstPath: 1,
  thirdRun: [],
  received: ['mover 4'],
  stored: 0,
  requests: 1,
  filesOnFirstPath: [],
};

it("Android's other data path: an original that cannot be deleted after its copy is not sent again, and what dead runs left there goes", () => {
  // The second run copies the 4 s session in and sends it, but cannot delete the original (a folder read-only for a moment).
  // Before, the third run (deletes allowed again) found the original, its copy here gone (sent), took it again and sent
  // the session twice; the first run's alive lock file and a write's temporary file a kill left stayed there for good
  // (no start-up of that path's runs ever comes).
  expect(race('stuck')).toEqual(SENT_ONCE_ORIGINAL_KEPT);
}, 120_000);

it("Android's other data path: the mark of an original taken outlives the folder's absence (unmounted at a start-up)", () => {
  // As above, but the third run starts while the first path is unmounted (no folder there), and a fourth once it is back.
  // Forgetting marks whose original was not seen would have taken the original again there and sent it a second time.
  expect(race('stuck-unmounted')).toEqual(SENT_ONCE_ORIGINAL_KEPT);
}, 120_000);

function workerFirst(exe: string, mode: 'jit' | 'full-aot'): void {
  const { status, stdout, stderr } = runMono(exe, [join(work, `device-worker-${mode}`)], mode);
  expect(status, stderr).toBe(0);
  // Init, Start, Stop and Flush each called on a worker thread, Init the game's first call: all run on the main thread
  // (the SDK's timers, events and Unity's API belong to it), every Task completes, the session is delivered once.
  // Before, with no call yet made on the main thread, the bridge had no main-thread context to post to: Init ran on the
  // worker (Unity's persistentDataPath and GameObject throw there), and so did every call and event after it.
  expect(JSON.parse(stdout)).toEqual({
    events: ['start main', 'end main', 'flushed main'],
    tasks: 'RanToCompletion RanToCompletion RanToCompletion RanToCompletion',
    received: ['worker-first 3'],
  });
}

function aborted(exe: string, mode: 'jit' | 'full-aot'): void {
  const { status, stdout, stderr } = runMono(exe, [join(work, `device-abort-${mode}`)], mode);
  expect(status, stderr).toBe(0);
  // A relay over a socket that takes the request and never answers: Dispose aborts it (UnityWebRequest.Abort: the relay
  // sees the connection closed), the flush completes at once (not at the 30 s time-out), nothing is reported, and the
  // session stays queued. Before, the request stayed open and the flush waited for it.
  expect(JSON.parse(stdout)).toEqual({ socketDispose: 'request arrived, closed by the player, RanToCompletion RanToCompletion', socketDisposeEvents: [], socketDisposeQueued: 1 });
}

function played(exe: string, mode: 'jit' | 'full-aot'): void {
  // persistentDataPath with letters beyond ASCII (a Windows user named Çağrı İşık, a folder in Japanese), on a device set to
  // Turkish: every file the tracker writes, moves, locks, lists and deletes lives under it.
  const { status, stdout, stderr } = runMono(exe, [join(work, `device-${mode}-Çağrı İşık 日本`), DROP_REASONS.join(','), ERROR_KINDS.join(',')], mode, 'tr_TR.UTF-8');
  expect(status, stderr).toBe(0);
  const report = JSON.parse(stdout) as Record<string, unknown>;

  expect(report['desktopFocus']).toEqual(['stop 5']);
  // A desktop window behind another when Init runs is in the background until focus returns (Application.isFocused):
  // its 60 s there are no play (time-out, too short), the continuation plays 2 s; a phone started unfocused plays, and so
  // does a headless run (-batchmode: a CI's Play mode tests), which has no window to focus.
  // The game destroyed the tracker's hidden object: a new one takes over, so the 70 s away are still the background.
  expect(report['hostDestroyed']).toEqual(['background-timeout 5', 'stop 2']);
  expect(report['hostsLive']).toBe(1);
  expect(report['hostsAfterQuit']).toBe(0);
  // Unity's start-up OnApplicationPause(false), after or before the object reads Application.isFocused, changes nothing.
  expect(report['unfocusedAtInit']).toEqual(['background-timeout 0', 'stop 2', 'background-timeout 0', 'stop 2', 'stop 3', 'stop 4']);
  // A phone's own keyboard takes focus without a pause: still play (no pause, no time-out); Home pauses.
  expect(report['phoneKeyboard']).toEqual(['stop 77']);
  // An hour without frames (a laptop asleep, the Editor paused): background time, which ended the session at the last
  // checkpoint tick (15 s: the 1 s played after it is lost, less than one interval) and continues it; the next frame writes the
  // ended session and the continuation's record (twice: begun, then checkpointed), not one per period missed.
  expect(report).toMatchObject({ stalledFrameWrites: 3, stalledTimersLeftDue: false });
  // The continuation: 20 s played, 40 s without frames paused from its last tick (at 15 s: 5 s played after it are
  // lost, less than one interval), 10 s more.
  expect(report['stalledSessions']).toEqual(['start', 'background-timeout 15', 'continued', 'stop 25']);
  // Calls from another thread run on the main thread: events raised there, Tasks completed, the session recorded.
  expect(report['workerThreadEvents']).toEqual(['start main', 'end main']);
  expect(report).toMatchObject({ workerThreadTasks: 'started stopped', workerThreadReceived: ['worker 3'] });
  // Six threads calling Start, Stop and Flush at once, round after round (a 503 stretch among them): events on the main
  // thread only, every Task completed, each ended session delivered once with its seconds, nothing left queued.
  // Relay headers UnityWebRequest refuses: a trailing line break is trimmed (as fetch does) and the session delivered; a
  // control character inside is a request that never left: the relay reported unreachable once in ten minutes, the
  // session kept and delivered once the headers can be sent.
  expect(report).toMatchObject({ refusedHeaderErrors: ['relay'], refusedHeaderReceived: ['headers 3', 'headers 4'] });
  expect(report).toMatchObject({ parallelOffMain: 0, parallelCalls: 180, parallelUnsettled: 0, parallelDelivered: 'each ended session once', parallelLeft: 0 });
  // Application.quitting: the SDK's handler and the lifecycle object's (no replacement while quitting), each once.
  expect(report).toMatchObject({ staleHandlerCalls: 0, freshHandlerCalls: 1, quittingHandlers: 2 });
  expect(report).toMatchObject({ queuedAtExit: 1, deliveredNextRun: ['quitter 4'], leftNextRun: 0 });
  // A session under 1 s at quit: dropped while quitting (no main-thread turn after it), once. On a read-only disk: heard
  // while quitting, not by a start-up still refused its delete, and once more by the start-up that deletes the record.
  expect(report).toMatchObject({ shortQuitHeard: ['too-short 0'], shortQuitHeardNextRun: ['too-short 0'], shortQuitLeft: 0 });
  expect(report).toMatchObject({ readOnlyQuitHeard: [['too-short 0'], ['too-short 0'], ['too-short 0', 'too-short 0']], readOnlyQuitLeft: 0 });
  expect(report).toMatchObject({ playedMsOnDiskAtPause: 10_000, recoveredAfterKill: ['paused 10'] });
  // Windows refusing a replace while another process holds the file (an antivirus, a second copy reading it): tried
  // again, so the 15 s checkpoint and the choice are stored and no storage error is raised; refused for good, the
  // write fails with the old file whole and no temporary file left.
  expect(report).toMatchObject({ refusedReplaceRecovered: ['scanned 15'], refusedReplaceErrors: [], refusedChoiceStored: false, refusedTries: 4, refusedForGood: '{"old":true}' });
  // Windows refusing a delete while another process holds the file (a second copy of the game reading the running
  // record at its start-up): tried again, so the player's erasure completes and the next run sends nothing of the
  // erased session; refused for good, the delete fails after four tries, the file kept; access denied fails at once.
  expect(report).toMatchObject({ refusedDeleteErase: 'erased', refusedDeleteRunningLeft: 0, refusedDeleteNextRun: [], refusedDeleteErrors: [] });
  expect(report).toMatchObject({ refusedDeleteForGood: 'kept after 4', deniedDelete: 'kept after 1' });
  expect(report['setAside']).toEqual(['.json.unreadable']);
  expect(report['setAsideErrors']).toEqual([expect.stringMatching(/^storage: A damaged tracker file was set aside/)]);
  expect(report['fullDiskWrite']).toBe('{"old":true}');
  expect(report['temporaryLeft']).toEqual(['fresh.json.tmp']);
  expect(report['badOptions']).toEqual([
    expect.stringMatching(/^VALIDATION_ERROR GameCampaignOptions\.CheckpointInterval must be/),
    expect.stringMatching(/^VALIDATION_ERROR GameCampaignOptions\.MaxQueue must be/),
    // As createGameCampaign refuses them (a key without its secret or with a line break; routes appended after a query).
    expect.stringMatching(/^VALIDATION_ERROR GameCampaignOptions\.ClientKey must have the form <key_id>:<secret>/),
    expect.stringMatching(/^VALIDATION_ERROR GameCampaignOptions\.ClientKey must have the form <key_id>:<secret>/),
    expect.stringMatching(/^VALIDATION_ERROR GameCampaignOptions\.RelayUrl must be a URL with no query or fragment/),
    ...Array(3).fill('VALIDATION_ERROR GameCampaignOptions.RelayUrl must be an absolute http(s) URL, such as https://game.example/campaign'),
  ]);
  expect(report['deepMetadata']).toEqual(['started', 'VALIDATION_ERROR Invalid request: start.metadata must not nest deeper than 61 arrays and objects', 'VALIDATION_ERROR', '3 4']);
  // Stored by a release before that check (62-63 levels): start-up goes on, the recovered sessions end, each is dropped
  // once (invalid, as the relay would; another player's expired), nothing is left, and the session behind them is delivered.
  expect(report['storedDeepInit']).toBe('ready');
  // (Sorted: the other player's expiry runs beside the start-up flush.)
  expect([...(report['storedDeepEvents'] as string[])].sort()).toEqual([
    'dropped expired63 expired',
    'dropped queued62 invalid sessions.metadata: nested deeper than the 64 levels the relay takes',
    'dropped run62 invalid sessions.metadata: nested deeper than the 64 levels the relay takes',
    'dropped run63 invalid sessions.metadata: nested deeper than the 64 levels the relay takes',
    'end run62 recovered',
    'end run63 recovered',
  ]);
  expect(report).toMatchObject({ storedDeepReceived: ['queued 8'], storedDeepLeft: 0 });
  // A 200 whose items have no status, or one the spec does not define: an unexpected body (reported once), not a
  // delivery; the session stays queued and the next good answer delivers it (it was deleted as flushed before).
  expect(report).toMatchObject({ malformedEvents: ['error relay', 'flushed 1'], malformedQueued: [1, 1, 1], malformedReceived: ['shapes 3'] });
  // Init twice in one frame after a kill: the second tracker recovers the killed run's session (15 s: its last
  // checkpoint) and sends it; before, the first one's claim on the dead run hid it until the run after.
  expect(report).toMatchObject({ initTwice: 'RanToCompletion RanToCompletion', initTwiceEnded: ['recovered 15'], initTwiceReceived: ['twice 15'], initTwiceLeft: 0 });
  // Another player signs in while the last one's flush waits: the new Init's Dispose of the last SDK aborts its request
  // (its late answer changes nothing: the session stays queued, and the last player's next run delivers it once), and
  // none of the last player's events reaches the game after the new Init (it would credit the new player).
  expect(report).toMatchObject({ switchEvents: [], switchFlush: 'RanToCompletion', switchLeft: 1, switchReceived: 1 });
  // Dispose while a flush's queue read is under way: no request after it (JavaScript's dispose aborts the flush's
  // request); the session stays queued and the next run delivers it once.
  expect(report).toMatchObject({ readDisposeRequests: [], readDisposeTasks: 'RanToCompletion RanToCompletion', readDisposeQueued: 1 });
  expect(report).toMatchObject({ readDisposeReceived: ['read-dispose 3'], readDisposeLeft: 0 });
  // Dispose while a batch of two waits for the relay, which refuses it for its content: no half is sent after Dispose;
  // both stay queued and the next run delivers each once.
  expect(report).toMatchObject({ bisectDisposeRequests: ['before 2'], bisectDisposeTasks: 'RanToCompletion RanToCompletion', bisectDisposeQueued: 2 });
  expect(report).toMatchObject({ bisectDisposeReceived: ['bisect-dispose 3', 'bisect-dispose 4'], bisectDisposeLeft: 0 });
  // Dispose while the flush's request waits for the relay, which records the batch and answers after Dispose: the
  // request is aborted (as JavaScript's dispose aborts it), the flush and Dispose complete without its answer, nothing is
  // reported, the batch stays queued (before: the late answer deleted it after Dispose), and the next run's copy is
  // answered SKIPPED: delivered once.
  expect(report).toMatchObject({ inflightDisposeTasks: 'RanToCompletion RanToCompletion', inflightDisposeEvents: [], inflightDisposeQueued: 1 });
  expect(report).toMatchObject({ inflightNextRunEvents: ['flushed SKIPPED'], inflightDisposeReceived: ['inflight-dispose 3'], inflightDisposeLeft: 0 });
  expect(report['dropReasons']).toEqual(DROP_REASONS.map((reason) => `${pascal(reason)} ${reason}`));
  expect(report['errorKinds']).toEqual(ERROR_KINDS.map((kind) => `${pascal(kind)} ${kind}`));
  expect(report['unknown']).toBe('Unknown Overflow Expired Storage Unknown');
  expect(report).toMatchObject({ retryAfterDateMs: 30_000, retryAfterSecondsMs: 2_500 });
  expect(report['retryAfterJunk']).toBeNull();
}

/** csharp/ManagedPlayerSwitchProbe.cs, compiled once (a program of its own). */
const switchProbe = deviceProbeOnce(join(work, 'player-switch.exe'), 'ManagedPlayerSwitchProbe', { runner: [] });

function playerSwitch(story: 'running' | 'in-flight'): unknown {
  const { status, stdout, stderr } = runMono(switchProbe(), [join(work, `device-switch-${story}`), story], 'jit');
  expect(status, stderr).toBe(0);
  return JSON.parse(stdout);
}

it('a second player logging in (Init again, no Stop) ends the first one\'s session into its own queue, sent only when that player returns', () => {
  // Found no defect (p32, a hostile check of "two players on one device"): kept as the story of the promise. p1's session
  // ends (`dispose`, 5 s) and waits in p1's folder; it is never sent with p2's credentials (the relay would refuse it as
  // another user's session, and the tracker drop it), and p1's next Init sends it.
  expect(playerSwitch('running')).toEqual({
    received: ['p2 3'],
    events: ['ended p1 dispose 5', 'ended p2 stop 3', 'flushed'],
    afterReturn: ['p2 3', 'p1 5'],
    eventsAfterReturn: ['flushed'],
  });
}, 120_000);

it("a second player logging in while the first one's flush is in flight: the first one's copy is recalled and sent again by its player only (SKIPPED)", () => {
  // Init(p2) disposes p1's tracker, which recalls the request in flight; the relay had recorded it, so p1's next Init
  // sends it again and the relay answers SKIPPED: received once, no error, nothing dropped.
  expect(playerSwitch('in-flight')).toEqual({
    received: ['p1 5', 'p2 3'],
    events: ['ended p1 stop 5', 'ended p2 stop 3', 'flushed'],
    afterReturn: ['p1 5', 'p2 3'],
    eventsAfterReturn: ['flushed'],
  });
}, 120_000);
