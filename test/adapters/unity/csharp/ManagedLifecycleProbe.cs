// What the managed tracker promises beyond the contract's scenarios, played through the public API and Unity's
// messages (compiled with test/contract/cs-runner's MainLoop and FakeRelay). Prints one JSON report that
// test/adapters/unity/managed-lifecycle.test.ts checks.
// args: device folder, then the JavaScript drop reasons and error kinds (core/tracker/events.ts), comma-separated.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedLifecycleProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly FakeRelay Relay = ProbeDevice.Relay;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        ProbeDevice.Open(args[0]);

        Names(args[1].Split(','), args[2].Split(','));
        DesktopFocus();
        UnfocusedAtInit();
        HostDestroyed();
        PhoneKeyboard();
        FramesStalled();
        DomainReloadOff();
        QuitWritesBeforeExit();
        QuitDropsShortSession();
        PauseWritesBeforeSuspend();
        ReplaceRefused();
        DeleteRefused();
        DamagedFileKept();
        LeftoverTemporaryFiles();
        BadOptions();
        DeepMetadata();
        StoredDeepMetadata();
        MalformedResults();
        InitTwiceAfterKill();
        SwitchPlayerDuringFlush();
        DisposeDuringQueueRead();
        DisposeDuringRefusedBatch();
        DisposeDuringRequest();
        WorkerThreadCalls();
        ParallelWorkerCalls();
        RefusedHeaders();
        Report["retryAfterDateMs"] = RetryAfter.Ms(DeviceClock.UtcNow().AddSeconds(30).ToString("R", System.Globalization.CultureInfo.InvariantCulture)); // an HTTP date 30 s ahead
        Report["retryAfterSecondsMs"] = RetryAfter.Ms("2.5");
        Report["retryAfterJunk"] = RetryAfter.Ms("soon");
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    private static void NewProcess()
    {
        UnityProcess.Start(Loop);
    }

    private static void Init(string player, GameCampaignOptions options = null)
    {
        Loop.Run(() => GameCampaign.Init(options ?? ProbeDevice.Options(player)), "init");
    }

    private static void Pass(double ms) { ProbeDevice.Pass(ms); }

    /// <summary>Every JavaScript name maps to an enum member and back; an unknown name is Unknown.</summary>
    private static void Names(string[] reasons, string[] kinds)
    {
        var drops = new List<object>();
        foreach (var reason in reasons) drops.Add(TrackerNames.ParseDropReason(reason) + " " + TrackerNames.JavaScriptName(TrackerNames.ParseDropReason(reason)));
        var errors = new List<object>();
        foreach (var kind in kinds) errors.Add(TrackerNames.ParseErrorKind(kind) + " " + TrackerNames.JavaScriptName(TrackerNames.ParseErrorKind(kind)));
        Report["dropReasons"] = drops;
        Report["errorKinds"] = errors;
        Report["unknown"] = TrackerNames.ParseDropReason("later-reason").ToString() + " " + TrackerNames.ReasonOf(new DroppedEvent { Reason = "overflow" })
            + " " + new DroppedEvent { Reason = "expired" }.DropReason + " " + new TrackerError { Kind = "storage" }.ErrorKind + " " + new TrackerError { Kind = "later" }.ErrorKind;
    }

    /// <summary>A desktop player or the Editor: focus lost and regained, no pause message. 3 s + (10 s unfocused) + 2 s = 5 s.</summary>
    private static void DesktopFocus()
    {
        NewProcess();
        var ended = new List<object>();
        Tracker.SessionEnded += e => ended.Add(e.Reason + " " + e.Session.DurationSeconds);
        Init("desktop");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(3000);
        ManagedLifecycle.Instance.OnApplicationFocus(false);
        Pass(10000);
        ManagedLifecycle.Instance.OnApplicationFocus(true);
        Pass(2000);
        Loop.Run(Tracker.Stop, "stop");
        Report["desktopFocus"] = ended;
    }

    /// <summary>
    /// A desktop game whose window went behind another before <c>Init</c> (the player switched away during the loading
    /// screen; Run In Background on, so frames go on): Unity tells components only of focus changes, and the tracker's
    /// lifecycle object is made at Init, so no message says the game has no focus. 60 s behind the other window are
    /// background (a time-out), not play; back in front, the continuation counts 2 s. Then a phone (focus there is
    /// not the background: its own keyboard takes it) starts unfocused and plays 3 s.
    /// </summary>
    private static void UnfocusedAtInit()
    {
        var ended = new List<object>();
        // Unity sends OnApplicationPause(false) to every component just after its Awake (MonoBehaviour.OnApplicationPause):
        // after Instance read isFocused, it is the end of no pause (before, it gave the window its focus back); and the
        // same message the other way round, within AddComponent, before Instance reads isFocused.
        BehindThenInFront(ended, "unfocused", pauseAfterInit: true);
        BehindThenInFront(ended, "unfocused-awake", pauseAfterInit: false);
        NewProcess();
        Tracker.SessionEnded += e => ended.Add(e.Reason + " " + e.Session.DurationSeconds);
        Application.MobilePlatform = true;
        Application.Focused = false; // the on-screen keyboard of the game's login field
        Init("unfocused-phone");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(3000);
        Loop.Run(Tracker.Stop, "stop");
        Application.MobilePlatform = false;
        // A headless run (-batchmode: the Play mode tests of a CI, a server build) has no window to focus: it plays.
        NewProcess();
        Tracker.SessionEnded += e => ended.Add(e.Reason + " " + e.Session.DurationSeconds);
        Application.BatchMode = true;
        Init("unfocused-batch");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(4000);
        Loop.Run(Tracker.Stop, "stop");
        Application.BatchMode = false;
        Application.Focused = true;
        Report["unfocusedAtInit"] = ended;
    }

    /// <summary>
    /// A desktop window behind another at <c>Init</c>, told <c>OnApplicationPause(false)</c> after Init or within
    /// AddComponent: 60 s behind, then in front for 2 s.
    /// </summary>
    private static void BehindThenInFront(List<object> ended, string name, bool pauseAfterInit)
    {
        NewProcess();
        Tracker.SessionEnded += e => ended.Add(e.Reason + " " + e.Session.DurationSeconds);
        Application.Focused = false;
        if (!pauseAfterInit) GameObject.Added = component => { var lifecycle = component as ManagedLifecycle; if (lifecycle != null) lifecycle.OnApplicationPause(false); };
        try { Init(name); }
        finally { GameObject.Added = null; }
        if (pauseAfterInit) ManagedLifecycle.Instance.OnApplicationPause(false);
        Loop.Run(() => Tracker.Start(), "start");
        Pass(60000);
        Application.Focused = true;
        ManagedLifecycle.Instance.OnApplicationFocus(true);
        Pass(2000);
        Loop.Run(Tracker.Stop, "stop");
    }

    /// <summary>
    /// The game destroys the tracker's hidden object 5 s into a session (a reset that destroys every DontDestroyOnLoad
    /// object), then the player leaves for 70 s and comes back for 2 s. Unity sends its messages only to components that
    /// live, so from here frames and the pause go to those (not to ManagedLifecycle.Instance, which would make one).
    /// </summary>
    private static void HostDestroyed()
    {
        NewProcess();
        GameObject.Live.Clear(); // the objects of the last processes are gone with them
        var ended = new List<object>();
        Tracker.SessionEnded += e => ended.Add(e.Reason + " " + e.Session.DurationSeconds);
        Init("destroyed");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(5000);
        UnityEngine.Object.Destroy(ManagedLifecycle.Instance.gameObject);
        foreach (var live in LiveLifecycles()) live.OnApplicationPause(true);
        ProbeDevice.MonotonicMs += 70000; // no frames while paused
        foreach (var live in LiveLifecycles()) live.OnApplicationPause(false);
        LiveFrames(2000);
        Loop.Run(Tracker.Stop, "stop");
        Report["hostDestroyed"] = ended;
        Report["hostsLive"] = (double)LiveLifecycles().Count;
        Application.Quit(); // quitting: Unity destroys every object after it, and none is made again
        Loop.Settle();
        foreach (var live in LiveLifecycles()) UnityEngine.Object.Destroy(live.gameObject);
        Report["hostsAfterQuit"] = (double)LiveLifecycles().Count;
    }

    private static List<ManagedLifecycle> LiveLifecycles()
    {
        var live = new List<ManagedLifecycle>();
        foreach (var component in GameObject.Live)
        {
            var lifecycle = component as ManagedLifecycle;
            if (lifecycle != null) live.Add(lifecycle); // Unity's ==: a destroyed one is null
        }
        return live;
    }

    /// <summary>Time passes with frames sent to the live lifecycle objects only (as Unity sends Update).</summary>
    private static void LiveFrames(double ms)
    {
        var target = ProbeDevice.MonotonicMs + ms;
        while (LiveLifecycles().Count > 0 && ManagedTimers.NextDueMs() <= target)
        {
            ProbeDevice.MonotonicMs = Math.Max(ProbeDevice.MonotonicMs, ManagedTimers.NextDueMs());
            foreach (var live in LiveLifecycles()) live.Update();
            Loop.Settle();
        }
        ProbeDevice.MonotonicMs = target;
        foreach (var live in LiveLifecycles()) live.Update();
        Loop.Settle();
    }

    /// <summary>
    /// An Android or iOS player: the game's own on-screen keyboard (or a system panel over the game) takes focus with no
    /// pause, for longer than the background time-out: still play, one session, 3 s + 70 s typing + 2 s = 75 s. Then
    /// Home pressed while the keyboard is up (Unity sends the pause only): 10 s paused are not play, +2 s = 77 s.
    /// </summary>
    private static void PhoneKeyboard()
    {
        NewProcess();
        Application.MobilePlatform = true;
        var ended = new List<object>();
        Tracker.SessionEnded += e => ended.Add(e.Reason + " " + e.Session.DurationSeconds);
        Init("phone");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(3000);
        ManagedLifecycle.Instance.OnApplicationFocus(false); // the keyboard opens
        for (var i = 0; i < 7; i++) Pass(10000);
        ManagedLifecycle.Instance.OnApplicationFocus(true);
        Pass(2000);
        ManagedLifecycle.Instance.OnApplicationFocus(false); // the keyboard again, then Home
        ManagedLifecycle.Instance.OnApplicationPause(true);
        ProbeDevice.MonotonicMs += 10000; // no frames while paused
        ManagedLifecycle.Instance.OnApplicationPause(false);
        ManagedLifecycle.Instance.OnApplicationFocus(true);
        Pass(2000);
        Loop.Run(Tracker.Stop, "stop");
        Application.MobilePlatform = false;
        Report["phoneKeyboard"] = ended;
    }

    /// <summary>
    /// No frame for an hour with focus kept (a laptop's lid closed on the game, the Editor's pause button, a debugger):
    /// the next frame's checkpoint tick finds it came 3,600 s after the last, so that hour is background time, which
    /// ended the session there (background-timeout) and continues it at once; the frame writes that, not one
    /// checkpoint per 15 s missed (240 flushed writes at once), and the timers are not left due. Then 20 s of play, with
    /// ticks on time, count; 40 s without frames pause the session from its last tick (not a time-out); 10 s more count.
    /// </summary>
    private static void FramesStalled()
    {
        NewProcess();
        Init("stalled");
        var sessions = new List<object>();
        Tracker.SessionStarted += e => sessions.Add(e.Continues == null ? "start" : "continued");
        Tracker.SessionEnded += e => sessions.Add(e.Reason + " " + e.Session.DurationSeconds);
        Loop.Run(() => Tracker.Start(), "start");
        Pass(16000);
        var writes = 0;
        TrackerFiles.Observer = (operation, path) => { if (operation == "write") Interlocked.Increment(ref writes); };
        ProbeDevice.Stall(3600000);
        TrackerFiles.Observer = null;
        Report["stalledFrameWrites"] = (double)writes;
        Report["stalledTimersLeftDue"] = ManagedTimers.NextDueMs() <= ProbeDevice.MonotonicMs;
        Pass(20000);
        ProbeDevice.Stall(40000);
        Pass(10000);
        Loop.Run(Tracker.Stop, "stop");
        Report["stalledSessions"] = sessions;
    }

    /// <summary>
    /// The game calls the tracker from another thread (after an await with ConfigureAwait(false), in Task.Run): the calls
    /// run on the main thread, in order, so the events are raised there (what handlers touching Unity's API need) and
    /// nothing races the tracker's timers; the Tasks complete. 3 s of play recorded once.
    /// </summary>
    private static void WorkerThreadCalls()
    {
        NewProcess();
        var main = Thread.CurrentThread.ManagedThreadId;
        var raisedOn = new List<object>();
        Tracker.SessionStarted += e => raisedOn.Add("start " + (Thread.CurrentThread.ManagedThreadId == main ? "main" : "worker"));
        Tracker.SessionEnded += e => raisedOn.Add("end " + (Thread.CurrentThread.ManagedThreadId == main ? "main" : "worker"));
        Init("worker");
        Task<string> started = null;
        Task.Run(() => { started = Tracker.Start(); }).Wait();
        Loop.Settle();
        Pass(3000);
        Task stopped = null;
        Task.Run(() => { stopped = Tracker.Stop(); }).Wait();
        Loop.Settle();
        var flushed = ProbeDevice.Relay.Received.Count;
        Loop.Run(Tracker.Flush, "flush");
        Report["workerThreadEvents"] = raisedOn;
        Report["workerThreadTasks"] = (started.IsCompleted && started.Result.Length > 0 ? "started" : "not started") + " " + (stopped.IsCompleted && !stopped.IsFaulted ? "stopped" : "not stopped");
        Report["workerThreadReceived"] = Json.Write(Relay.Received.GetRange(flushed, Relay.Received.Count - flushed), session => (object)(session.Player + " " + session.DurationSeconds));
    }

    /// <summary>
    /// Six threads at once call Start, Stop and Flush, round after round, while frames run and the relay answers 503 for a
    /// stretch: every event is raised on the main thread, every Task completes, no call fails, and what the relay
    /// recorded is each ended session once, with the seconds it ended with (no flush or Stop raced another on the queue).
    /// </summary>
    private static void ParallelWorkerCalls()
    {
        NewProcess();
        var main = Thread.CurrentThread.ManagedThreadId;
        var offMain = 0;
        var ended = new Dictionary<string, double>();
        Action<string> check = what => { if (Thread.CurrentThread.ManagedThreadId != main) Interlocked.Increment(ref offMain); };
        Tracker.SessionStarted += e => check("start");
        Tracker.SessionEnded += e => { check("end"); ended[e.SessionId] = e.Session.DurationSeconds; };
        Tracker.Flushed += e => check("flushed");
        Tracker.Dropped += e => { check("dropped"); ended.Remove(e.SessionId); };
        Tracker.Error += e => check("error");
        Init("parallel");
        var calls = new List<Task>();
        var pick = new System.Random(7);
        for (var round = 0; round < 30; round++)
        {
            if (round == 10) { Relay.Mode = "status"; Relay.Status = 503; }
            if (round == 20) Relay.Mode = "accept";
            var workers = new List<Task>();
            for (var w = 0; w < 6; w++)
            {
                var kind = pick.Next(3);
                workers.Add(Task.Run(() =>
                {
                    var call = kind == 0 ? (Task)Tracker.Start() : kind == 1 ? Tracker.Stop() : Tracker.Flush();
                    lock (calls) calls.Add(call);
                }));
            }
            Task.WaitAll(workers.ToArray());
            Loop.Settle();
            Pass(1500);
        }
        Loop.Run(Tracker.Stop, "stop");
        Pass(400000); // past any backoff: the queue drains
        Loop.Run(Tracker.Flush, "flush");
        var received = Relay.Received.FindAll(session => session.Player == "parallel");
        var wrong = 0;
        foreach (var session in received) if (!ended.ContainsKey(session.SessionId) || ended[session.SessionId] != session.DurationSeconds) wrong++;
        Report["parallelOffMain"] = (double)offMain;
        Report["parallelCalls"] = (double)calls.Count;
        Report["parallelUnsettled"] = (double)calls.FindAll(call => !call.IsCompleted || call.IsFaulted).Count;
        Report["parallelDelivered"] = received.Count == ended.Count && wrong == 0 && ended.Count > 0 ? "each ended session once" : received.Count + " received, " + ended.Count + " ended, " + wrong + " not as ended";
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "parallel");
        Report["parallelLeft"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
    }

    /// <summary>Enter Play Mode Options without a domain reload: a handler of the last Play mode session is not called in the next.</summary>
    private static void DomainReloadOff()
    {
        NewProcess();
        var stale = 0;
        var fresh = 0;
        Tracker.SessionStarted += e => stale++;
        NewProcess(); // Play mode entered again: Unity calls the [RuntimeInitializeOnLoadMethod(SubsystemRegistration)] methods
        Tracker.SessionStarted += e => fresh++;
        Init("reload");
        Loop.Run(() => Tracker.Start(), "start");
        Report["staleHandlerCalls"] = (double)stale;
        Report["freshHandlerCalls"] = (double)fresh;
        Init("reload"); // a second Init in the same Play mode session
        Report["quittingHandlers"] = (double)Application.QuittingHandlerCount; // Unity's static event keeps handlers across Play mode sessions
    }

    /// <summary>Quitting with a session running: the session's file is on disk when quitting's handlers return (the player exits then).</summary>
    private static void QuitWritesBeforeExit()
    {
        NewProcess();
        Application.Reachability = NetworkReachability.NotReachable;
        Init("quitter");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(4000);
        Application.Quit(); // no main-thread turn after this: the process is gone
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "quitter");
        Report["queuedAtExit"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
        NewProcess();
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        Init("quitter");
        Report["deliveredNextRun"] = Json.Write(Relay.Received.FindAll(session => session.Player == "quitter"), session => (object)(session.Player + " " + session.DurationSeconds));
        Report["leftNextRun"] = (double)(TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count);
    }

    /// <summary>
    /// Quitting with a session under 1 s running: its drop is heard while quitting's handlers run (no main-thread turn
    /// after them), once; on a disk refusing deletes too (read-only) it is heard then, not by a start-up still refused
    /// (its record stayed only because a delete failed), and again by the start-up that deletes the record.
    /// </summary>
    private static void QuitDropsShortSession()
    {
        var heard = new List<object>();
        Action process = () =>
        {
            NewProcess(); // a new process has no handlers (Tracker.ResetStatics)
            Tracker.Dropped += e => heard.Add(e.Reason + (e.Session != null ? " " + e.Session.DurationSeconds : ""));
        };
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "short-quitter");
        try
        {
            process();
            Init("short-quitter");
            Loop.Run(() => Tracker.Start(), "start");
            Pass(500);
            Application.Quit(); // no main-thread turn after this: the process is gone
            Report["shortQuitHeard"] = new List<object>(heard);
            process();
            Init("short-quitter");
            Report["shortQuitHeardNextRun"] = new List<object>(heard);
            Report["shortQuitLeft"] = (double)TrackerFiles.JsonFiles(folder.RunningDir).Count;

            heard.Clear();
            Loop.Run(() => Tracker.Start(), "start");
            Pass(500);
            TrackerFiles.RefuseWrite = path => true; // the disk went read-only
            Application.Quit();
            var atQuit = new List<object>(heard);
            process();
            Init("short-quitter");
            var refusedStart = new List<object>(heard);
            Loop.Run(() => GameCampaign.Dispose(), "dispose");
            TrackerFiles.RefuseWrite = null;
            process();
            Init("short-quitter");
            Report["readOnlyQuitHeard"] = Json.Write(new List<List<object>> { atQuit, refusedStart, new List<object>(heard) }, list => (object)list);
            Report["readOnlyQuitLeft"] = (double)TrackerFiles.JsonFiles(folder.RunningDir).Count;
        }
        finally { TrackerFiles.RefuseWrite = null; }
    }

    /// <summary>
    /// A phone pausing the app: the checkpoint taken at the pause is on disk when OnApplicationPause returns (no
    /// main-thread turn after it: the OS may kill the paused app), and the next start-up recovers it.
    /// </summary>
    private static void PauseWritesBeforeSuspend()
    {
        NewProcess();
        Init("paused");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(3000);
        ProbeDevice.MonotonicMs += 7000; // play goes on without a frame in between
        ManagedLifecycle.Instance.OnApplicationFocus(false);
        ManagedLifecycle.Instance.OnApplicationPause(true);
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "paused");
        var record = Json.Obj(Json.Parse(File.ReadAllText(Path.Combine(folder.RunningDir, TrackerFiles.JsonFiles(folder.RunningDir)[0]))));
        Report["playedMsOnDiskAtPause"] = Json.Num(record, "playedMs");
        NewProcess(); // killed while paused
        var before = Relay.Received.Count;
        Init("paused");
        Report["recoveredAfterKill"] = Json.Write(Relay.Received.GetRange(before, Relay.Received.Count - before), session => (object)(session.Player + " " + session.DurationSeconds));
    }

    /// <summary>
    /// A Windows player: ReplaceFileW (libil2cpp os/Win32/File.cpp <c>File::ReplaceFile</c>, which IL2CPP and Unity's mono
    /// both call) refuses to replace a file another process holds open without delete sharing, an IOException (Win32
    /// ERROR_SHARING_VIOLATION, "being used by another process"). An antivirus scans the running record as the 15 s
    /// checkpoint replaces it, refusing three tries: the checkpoint is still written and no storage error is raised, so
    /// the game killed at 20 s leaves 15 s for the next run (the 1 s checkpoint before: 1 s). Then the choice written
    /// while a second copy of the game reads it (one refusal): stored. Then a replace refused for good: the write fails,
    /// the old file whole, no temporary file left.
    /// </summary>
    private static void ReplaceRefused()
    {
        NewProcess();
        var errors = new List<object>();
        Tracker.Error += e => errors.Add(e.Kind);
        Init("scanned");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "scanned");
        Loop.Run(() => Tracker.SetOptOut(false), "opt in"); // the choice's file made
        Loop.Run(() => Tracker.Start(), "start");
        Pass(10000);
        var refusals = 3;
        var refused = 0;
        var place = TrackerFiles.MoveIntoPlace;
        TrackerFiles.MoveIntoPlace = (temporary, target) =>
        {
            if (File.Exists(target) && Interlocked.Decrement(ref refusals) >= 0)
            {
                Interlocked.Increment(ref refused);
                throw new IOException("The process cannot access the file because it is being used by another process.");
            }
            place(temporary, target);
        };
        Pass(10000);
        refusals = 1;
        Loop.Run(() => Tracker.SetOptOut(false), "opt in again");
        Report["refusedChoiceStored"] = RunningStore.PeekOptOut(folder);
        Report["refusedTries"] = (double)refused;
        TrackerFiles.MoveIntoPlace = place;
        NewProcess(); // killed at 20 s
        var before = Relay.Received.Count;
        Init("scanned");
        Report["refusedReplaceRecovered"] = Json.Write(Relay.Received.GetRange(before, Relay.Received.Count - before), session => (object)(session.Player + " " + session.DurationSeconds));
        Report["refusedReplaceErrors"] = errors;

        var path = Path.Combine(folder.QueueDir, "refused.json");
        TrackerFiles.Write(path, new Dictionary<string, object> { { "old", true } });
        TrackerFiles.MoveIntoPlace = (temporary, target) => { throw new IOException("The process cannot access the file because it is being used by another process."); };
        try { TrackerFiles.Write(path, new Dictionary<string, object> { { "old", false } }); Report["refusedForGood"] = "written"; }
        catch (IOException) { Report["refusedForGood"] = File.ReadAllText(path) + (File.Exists(path + ".tmp") ? " and a temporary file" : ""); }
        finally { TrackerFiles.MoveIntoPlace = place; }
    }

    /// <summary>
    /// A Windows player: DeleteFileW refuses to delete a file another process holds open without delete sharing (Mono's and
    /// IL2CPP's IOException with HResult 0x80070020: mono System.IO/MonoIO.cs GetException), as a second copy of the game
    /// starting up holds this player's running record while it reads it (File.ReadAllText shares reading only). The player
    /// erases their data while that copy reads the record, refusing two tries: the erasure completes (no STORAGE_ERROR, no
    /// storage error event), and the next run sends nothing of the erased session. Then a delete refused for good (four
    /// tries) still fails, the file kept; a read-only folder's refusal (access denied) is not tried again.
    /// </summary>
    private static void DeleteRefused()
    {
        NewProcess();
        var errors = new List<object>();
        Tracker.Error += e => errors.Add(e.Kind);
        Init("erasing");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "erasing");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(3000); // the 1 s checkpoint on disk
        var refusals = 2;
        var tries = 0;
        var delete = TrackerFiles.DeleteFile;
        TrackerFiles.DeleteFile = target =>
        {
            Interlocked.Increment(ref tries);
            if (File.Exists(target) && Interlocked.Decrement(ref refusals) >= 0) throw new IOException("Sharing violation on path " + target, unchecked((int)0x80070020));
            delete(target);
        };
        try
        {
            Loop.Run(Tracker.DeleteStoredData, "erase");
            Report["refusedDeleteErase"] = "erased";
        }
        catch (GameCampaignException error) { Report["refusedDeleteErase"] = error.Code; }
        TrackerFiles.DeleteFile = delete;
        Report["refusedDeleteRunningLeft"] = (double)TrackerFiles.JsonFiles(folder.RunningDir).Count;
        NewProcess(); // the game restarted
        var before = Relay.Received.Count;
        Init("erasing");
        Report["refusedDeleteNextRun"] = Json.Write(Relay.Received.GetRange(before, Relay.Received.Count - before), session => (object)(session.Player + " " + session.DurationSeconds));
        Report["refusedDeleteErrors"] = errors;

        var path = Path.Combine(folder.QueueDir, "held.json");
        TrackerFiles.Write(path, new Dictionary<string, object> { { "held", true } });
        tries = 0;
        TrackerFiles.DeleteFile = target => { Interlocked.Increment(ref tries); throw new IOException("Sharing violation on path " + target, unchecked((int)0x80070020)); };
        try { TrackerFiles.Delete(path); Report["refusedDeleteForGood"] = "deleted"; }
        catch (IOException) { Report["refusedDeleteForGood"] = (File.Exists(path) ? "kept" : "gone") + " after " + tries; }
        tries = 0;
        TrackerFiles.DeleteFile = target => { Interlocked.Increment(ref tries); throw new UnauthorizedAccessException("Access to the path \"" + target + "\" is denied."); };
        try { TrackerFiles.Delete(path); Report["deniedDelete"] = "deleted"; }
        catch (UnauthorizedAccessException) { Report["deniedDelete"] = (File.Exists(path) ? "kept" : "gone") + " after " + tries; }
        finally { TrackerFiles.DeleteFile = delete; }
        TrackerFiles.Delete(path);
    }

    /// <summary>A queue file cut short: set aside under a name of its own (kept for inspection), reported once, and tracking goes on.</summary>
    private static void DamagedFileKept()
    {
        NewProcess();
        Application.Reachability = NetworkReachability.NotReachable;
        Init("damaged");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(5000);
        Loop.Run(Tracker.Stop, "stop");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "damaged");
        var queued = Path.Combine(folder.QueueDir, TrackerFiles.JsonFiles(folder.QueueDir)[0]);
        File.WriteAllText(queued, File.ReadAllText(queued).Substring(0, 20));
        NewProcess();
        var errors = new List<object>();
        Tracker.Error += e => errors.Add(e.Kind + ": " + e.Message);
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        Init("damaged");
        Loop.Run(Tracker.Flush, "flush");
        Report["setAside"] = Json.Write(new List<string>(Directory.GetFiles(folder.QueueDir)), path => (object)Path.GetFileName(path).Substring(Path.GetFileName(path).IndexOf('.')));
        Report["setAsideErrors"] = errors;
    }

    /// <summary>
    /// A write that fails on a full disk (its temporary file a link to /dev/full) leaves the old file and no temporary
    /// one; the temporary files of writes a kill cut short, over a minute old, are deleted at the next start-up, the
    /// player's own and another player's, but not one just written (another copy of the game may be writing it).
    /// </summary>
    private static void LeftoverTemporaryFiles()
    {
        NewProcess();
        var full = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "full-disk");
        var path = Path.Combine(full.QueueDir, "s.json");
        TrackerFiles.Write(path, new Dictionary<string, object> { { "old", true } });
        System.Diagnostics.Process.Start("ln", "-s /dev/full \"" + path + ".tmp\"").WaitForExit(); // quoted: the device folder has spaces
        var temporaryFor = TrackerFiles.TemporaryFor;
        TrackerFiles.TemporaryFor = written => written + ".tmp"; // the link's name (a write's own is random)
        try { TrackerFiles.Write(path, new Dictionary<string, object> { { "old", false } }); Report["fullDiskWrite"] = "written"; }
        catch (IOException) { Report["fullDiskWrite"] = File.ReadAllText(path) + (File.Exists(path + ".tmp") ? " and a temporary file" : ""); }
        finally { TrackerFiles.TemporaryFor = temporaryFor; }

        var own = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "leftover");
        var other = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "leftover-other");
        var leftovers = new[] { Path.Combine(own.QueueDir, "q.json.tmp"), Path.Combine(own.RunningDir, "r.json.tmp"), own.OptOutPath + ".tmp", Path.Combine(other.QueueDir, "o.json.tmp") };
        foreach (var leftover in leftovers)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(leftover));
            File.WriteAllText(leftover, "{\"sessi");
            File.SetLastWriteTimeUtc(leftover, DateTime.UtcNow.AddMinutes(-2));
        }
        var fresh = Path.Combine(own.QueueDir, "fresh.json.tmp");
        File.WriteAllText(fresh, "{");
        Init("leftover");
        Pass(0);
        var left = new List<object>();
        foreach (var file in new[] { leftovers[0], leftovers[1], leftovers[2], leftovers[3], fresh }) if (File.Exists(file)) left.Add(Path.GetFileName(file));
        Report["temporaryLeft"] = left;
    }

    /// <summary>
    /// Metadata 61 levels deep is played and delivered; 62 (which the relay's 64-level body limit refuses, and the
    /// session:end event's JSON cannot hold) and metadata holding itself are a VALIDATION_ERROR at Start, and the next
    /// run starts and plays.
    /// </summary>
    private static void DeepMetadata()
    {
        NewProcess();
        Init("deep");
        var outcomes = new List<object>();
        foreach (var depth in new[] { 61, 62 })
        {
            var metadata = new Dictionary<string, object> { { "leaf", depth } };
            for (var level = 1; level < depth; level++) metadata = new Dictionary<string, object> { { "k", metadata } };
            var start = Tracker.Start(null, null, metadata);
            Loop.Settle();
            outcomes.Add(start.IsFaulted ? ((GameCampaignException)start.Exception.InnerException).Code + " " + start.Exception.InnerException.Message : "started");
            Pass(3000);
            Loop.Run(Tracker.Stop, "stop");
        }
        var cycle = new Dictionary<string, object>();
        cycle["self"] = cycle;
        var cyclic = Tracker.Start(null, null, cycle);
        outcomes.Add(cyclic.IsFaulted ? ((GameCampaignException)cyclic.Exception.InnerException).Code : "started");
        Loop.Run(Tracker.Flush, "flush");
        NewProcess();
        Init("deep");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(4000);
        Loop.Run(Tracker.Stop, "stop");
        Loop.Run(Tracker.Flush, "flush");
        outcomes.Add(string.Join(" ", Relay.Received.FindAll(session => session.Player == "deep").ConvertAll(session => session.DurationSeconds.ToString()).ToArray()));
        Report["deepMetadata"] = outcomes;
    }

    private static Dictionary<string, object> Nested(int depth)
    {
        var metadata = new Dictionary<string, object> { { "leaf", depth } };
        for (var level = 1; level < depth; level++) metadata = new Dictionary<string, object> { { "k", metadata } };
        return metadata;
    }

    /// <summary>
    /// What a release before that check stored: sessions with metadata 62 and 63 levels deep, running (the Stop or
    /// crash of that release left them) and queued, and another player's expired one. Start-up goes on, each is
    /// dropped (invalid: the relay refuses a body deeper than 64 levels; expired) and reported once, and the session
    /// queued behind them is delivered.
    /// </summary>
    private static void StoredDeepMetadata()
    {
        NewProcess();
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "stored-deep");
        var other = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "stored-deep-other");
        var now = DeviceClock.NowMs();
        Func<string, int, double, Dictionary<string, object>> fields = (id, depth, ms) =>
        {
            var session = new Dictionary<string, object> { { "sessionId", id }, { "userId", "stored-deep" }, { "durationSeconds", Math.Floor(ms / 1000) }, { "startedAt", DeviceClock.IsoMs(now - ms) }, { "endedAt", DeviceClock.IsoMs(now) } };
            if (depth > 0) session["metadata"] = Nested(depth);
            return session;
        };
        foreach (var stored in new[] { new { Id = "run62", Depth = 62, Ms = 5000.0 }, new { Id = "run63", Depth = 63, Ms = 6000.0 } })
        {
            var record = new RunningRecord { Fields = new Dictionary<string, object> { { "sessionId", stored.Id }, { "userId", "stored-deep" }, { "metadata", Nested(stored.Depth) } }, StartedAtMs = now - stored.Ms, SpanMs = stored.Ms, PlayedMs = stored.Ms };
            TrackerFiles.Write(Path.Combine(folder.RunningDir, stored.Id + ".json"), record.ToJson());
        }
        TrackerFiles.Write(Path.Combine(folder.QueueDir, "000000000000-queued62.json"), fields("queued62", 62, 7000));
        TrackerFiles.Write(Path.Combine(folder.QueueDir, "000000000001-queued.json"), fields("queued", 0, 8000));
        var expired = fields("expired63", 63, 9000);
        expired["startedAt"] = DeviceClock.IsoMs(now - 40 * 86400000.0);
        TrackerFiles.Write(Path.Combine(other.QueueDir, "000000000000-expired63.json"), expired);

        NewProcess();
        var events = new List<object>();
        Tracker.SessionEnded += e => events.Add("end " + e.Session.SessionId + " " + e.Reason);
        Tracker.Dropped += e => events.Add(("dropped " + e.SessionId + " " + e.Reason + " " + e.Error).TrimEnd());
        Tracker.Error += e => events.Add("error " + e.Kind);
        var init = GameCampaign.Init(ProbeDevice.Options("stored-deep"));
        Loop.Settle();
        Report["storedDeepInit"] = init.IsFaulted ? init.Exception.InnerException.Message : init.IsCompleted ? "ready" : "waiting";
        if (init.IsCompleted && !init.IsFaulted) Loop.Run(Tracker.Flush, "flush");
        Report["storedDeepEvents"] = events;
        Report["storedDeepReceived"] = Json.Write(Relay.Received.FindAll(session => session.Player == "stored-deep"), session => (object)(session.SessionId + " " + session.DurationSeconds));
        Report["storedDeepLeft"] = (double)(TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count + TrackerFiles.JsonFiles(other.QueueDir).Count);
    }

    /// <summary>A new process where <paramref name="player"/> plays a 3 s session offline: it is queued, and the device is online again.</summary>
    private static void QueuedOffline(string player)
    {
        NewProcess();
        Init(player);
        Application.Reachability = NetworkReachability.NotReachable;
        Loop.Run(() => Tracker.Start(), "start");
        Pass(3000);
        Loop.Run(Tracker.Stop, "stop");
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
    }

    /// <summary>A 200 answering each session of the request <paramref name="body"/> with <paramref name="status"/> (any JSON value, or none).</summary>
    private static HttpAnswer Answered(string body, object status)
    {
        var results = new List<object>();
        foreach (var item in (List<object>)Json.Obj(Json.Parse(body))["sessions"]) results.Add(new Dictionary<string, object> { { "sessionId", Json.Str(Json.Obj(item), "sessionId") }, { "status", status } });
        return new HttpAnswer { Status = 200, Body = Bridge.Args("data", Bridge.Args("results", results)) };
    }

    /// <summary>
    /// A relay answering 200 with results the spec does not shape (an item without a status, a status it does not
    /// define): nothing is taken as delivered (core/relay/sender.ts reads it as a transient failure: an unexpected
    /// body); the session stays queued and the next good answer delivers it once.
    /// </summary>
    private static void MalformedResults()
    {
        QueuedOffline("shapes");
        var events = new List<object>();
        Tracker.Flushed += e => events.Add("flushed " + e.Results.Count);
        Tracker.Dropped += e => events.Add("dropped " + e.Reason);
        Tracker.Error += e => events.Add("error " + e.Kind);
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "shapes");
        var queued = new List<object>();
        foreach (var status in new object[] { null, "PENDING", 1.0 })
        {
            HttpExchange.Transport = (method, url, headers, body) => Task.FromResult(Answered(body, status));
            Pass(400000); // past any backoff
            Loop.Run(Tracker.Flush, "flush");
            queued.Add((double)TrackerFiles.JsonFiles(folder.QueueDir).Count);
        }
        HttpExchange.Transport = Relay.Exchange;
        Pass(400000);
        Loop.Run(Tracker.Flush, "flush");
        Report["malformedEvents"] = events;
        Report["malformedQueued"] = queued;
        Report["malformedReceived"] = Json.Write(Relay.Received.FindAll(session => session.Player == "shapes"), session => (object)(session.Player + " " + session.DurationSeconds));
    }

    /// <summary>
    /// A killed run left a session; the next run calls Init twice in one frame (a sign-in flow, a scene's Awake and
    /// another's): the second tracker, not the first (disposed before its start-up recovered anything), recovers it and
    /// sends it at once, instead of leaving it to the run after.
    /// </summary>
    private static void InitTwiceAfterKill()
    {
        NewProcess();
        Init("twice");
        Application.Reachability = NetworkReachability.NotReachable;
        Loop.Run(() => Tracker.Start(), "start");
        Pass(20000);
        NewProcess(); // killed
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        var ended = new List<object>();
        Tracker.SessionEnded += e => ended.Add(e.Reason + " " + e.Session.DurationSeconds);
        var first = GameCampaign.Init(ProbeDevice.Options("twice"));
        var second = GameCampaign.Init(ProbeDevice.Options("twice"));
        Loop.Settle();
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "twice");
        Report["initTwice"] = first.Status + " " + second.Status;
        Report["initTwiceEnded"] = ended;
        Report["initTwiceReceived"] = Json.Write(Relay.Received.FindAll(session => session.Player == "twice"), session => (object)(session.Player + " " + session.DurationSeconds));
        Report["initTwiceLeft"] = (double)(TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count);
    }

    /// <summary>
    /// Another player signs in (a second Init) while the last player's flush waits for the relay: the new Init's
    /// Dispose of the last SDK aborts that request (core/tracker/flusher.ts dispose), so its answer arriving later
    /// changes nothing, the last player's session stays queued and the next run of that player delivers it once; and
    /// no event of the last player reaches the game after the new Init completed (core/tracker/tracker.ts dispose
    /// forgets its listeners; a WebGL player's JavaScript SDK does): the game would credit that flush to the new player.
    /// </summary>
    private static void SwitchPlayerDuringFlush()
    {
        QueuedOffline("switch-a");
        var held = new TaskCompletionSource<HttpAnswer>();
        string sent = null;
        HttpExchange.Transport = (method, url, headers, body) => { sent = body; return held.Task; };
        var flush = Tracker.Flush();
        Loop.Settle();
        HttpExchange.Transport = Relay.Exchange;
        Init("switch-b");
        var events = new List<object>();
        Tracker.Flushed += e => events.Add("flushed " + e.Results[0].SessionId);
        Tracker.Dropped += e => events.Add("dropped " + e.SessionId);
        Tracker.Error += e => events.Add("error " + e.Kind);
        held.SetResult(Answered(sent, "SUCCESS"));
        Loop.Settle();
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "switch-a");
        Report["switchEvents"] = new List<object>(events);
        Report["switchFlush"] = flush.Status.ToString();
        Report["switchLeft"] = (double)(TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count);
        Init("switch-a");
        Loop.Run(Tracker.Flush, "flush");
        Report["switchReceived"] = (double)Relay.Received.FindAll(session => session.Player == "switch-a").Count;
    }

    /// <summary>
    /// Dispose while a flush's queue read is under way (the read on the file thread, Dispose on the main thread in
    /// between): no request after Dispose (core/tracker/flusher.ts dispose aborts a flush's request: nothing goes out
    /// once it is disposed); the session stays queued and the next run delivers it once. Before, the drain went on
    /// after the read and sent one request after Dispose.
    /// </summary>
    private static void DisposeDuringQueueRead()
    {
        QueuedOffline("read-dispose");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "read-dispose");
        var requests = new List<object>();
        Task disposing = null;
        var disposed = new ManualResetEvent(false);
        HttpExchange.Transport = (method, url, headers, body) =>
        {
            requests.Add((disposing == null ? "before " : "after ") + url.Substring(url.LastIndexOf('/') + 1));
            return Relay.Exchange(method, url, headers, body);
        };
        TrackerFiles.Observer = (operation, path) =>
        {
            if (operation != "read" || !path.StartsWith(folder.QueueDir, StringComparison.Ordinal)) return;
            TrackerFiles.Observer = null;
            // The game's Dispose on the main thread while this read runs on the file thread.
            Loop.Post(_ => { disposing = GameCampaign.Dispose(); disposed.Set(); }, null);
            disposed.WaitOne(10000);
        };
        var flush = Tracker.Flush();
        Loop.Settle();
        TrackerFiles.Observer = null;
        HttpExchange.Transport = Relay.Exchange;
        Report["readDisposeRequests"] = requests;
        Report["readDisposeTasks"] = flush.Status + " " + (disposing == null ? "none" : disposing.Status.ToString());
        Report["readDisposeQueued"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
        Init("read-dispose");
        Loop.Run(Tracker.Flush, "flush");
        Report["readDisposeReceived"] = Json.Write(Relay.Received.FindAll(session => session.Player == "read-dispose"), session => (object)(session.Player + " " + session.DurationSeconds));
        Report["readDisposeLeft"] = (double)(TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count);
    }

    /// <summary>
    /// Dispose while a batch of two is in flight, which the relay then refuses for its content (422 VALIDATION_ERROR):
    /// no half is sent after Dispose (the answer still comes, UnityWebRequest cannot recall it; JavaScript's dispose
    /// aborts it); both stay queued and the next run delivers each once. Before, the bisection sent both halves after
    /// Dispose.
    /// </summary>
    private static void DisposeDuringRefusedBatch()
    {
        NewProcess();
        Init("bisect-dispose");
        Application.Reachability = NetworkReachability.NotReachable;
        foreach (var ms in new[] { 3000, 4000 })
        {
            Loop.Run(() => Tracker.Start(), "start");
            Pass(ms);
            Loop.Run(Tracker.Stop, "stop");
        }
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        var held = new TaskCompletionSource<HttpAnswer>();
        var requests = new List<object>();
        var disposed = false;
        HttpExchange.Transport = (method, url, headers, body) =>
        {
            var count = ((List<object>)Json.Obj(Json.Parse(body))["sessions"]).Count;
            requests.Add((disposed ? "after " : "before ") + count);
            return requests.Count == 1 ? held.Task : Relay.Exchange(method, url, headers, body);
        };
        var flush = Tracker.Flush();
        Loop.Settle();
        Task disposing = null;
        Loop.Run(() => { disposing = GameCampaign.Dispose(); disposed = true; return Task.FromResult(0); }, "dispose");
        held.SetResult(new HttpAnswer { Status = 422, Body = Bridge.Args("code", "VALIDATION_ERROR", "message", "Invalid request", "details", new List<object>()) });
        Loop.Settle();
        HttpExchange.Transport = Relay.Exchange;
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "bisect-dispose");
        Report["bisectDisposeRequests"] = requests;
        Report["bisectDisposeTasks"] = flush.Status + " " + disposing.Status;
        Report["bisectDisposeQueued"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
        Init("bisect-dispose");
        Loop.Run(Tracker.Flush, "flush");
        var received = Relay.Received.FindAll(session => session.Player == "bisect-dispose");
        received.Sort((a, b) => a.DurationSeconds.CompareTo(b.DurationSeconds));
        Report["bisectDisposeReceived"] = Json.Write(received, session => (object)(session.Player + " " + session.DurationSeconds));
        Report["bisectDisposeLeft"] = (double)(TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count);
    }

    /// <summary>
    /// Dispose while the flush's request waits for the relay, which records the batch and answers after Dispose: the
    /// request is recalled (core/tracker/flusher.ts dispose aborts it; core/relay/sender.ts answers the abort transient,
    /// with no event), the flush and Dispose complete without its answer, and the batch stays queued (never taken for
    /// sent, never dropped); the next run sends it again and the relay's SKIPPED delivers it once. Before, the request
    /// was not recalled: the flush waited for its answer, which then deleted the queued session after Dispose.
    /// </summary>
    private static void DisposeDuringRequest()
    {
        QueuedOffline("inflight-dispose");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "inflight-dispose");
        var events = new List<object>();
        Tracker.Flushed += e => events.Add("flushed " + e.Results[0].Status);
        Tracker.Dropped += e => events.Add("dropped " + e.Reason);
        Tracker.Error += e => events.Add("error " + e.Kind);
        var held = new TaskCompletionSource<HttpAnswer>();
        Func<Task<HttpAnswer>> relayed = null;
        HttpExchange.Transport = (method, url, headers, body) =>
        {
            relayed = () => Relay.Exchange(method, url, headers, body);
            return held.Task;
        };
        var flush = Tracker.Flush();
        Loop.Settle();
        HttpExchange.Transport = Relay.Exchange;
        Task disposing = null;
        Loop.Run(() => { disposing = GameCampaign.Dispose(); return Task.FromResult(0); }, "dispose");
        Report["inflightDisposeTasks"] = flush.Status + " " + disposing.Status;
        // The relay took the request before it was recalled: it records the session, and its answer comes after Dispose.
        var late = relayed();
        // Run the main loop, not Wait(): the fake relay is heard on a later main-thread turn, as UnityWebRequest is.
        Loop.RunUntil(() => late.IsCompleted);
        held.SetResult(late.Result);
        Loop.Settle();
        Report["inflightDisposeEvents"] = new List<object>(events);
        Report["inflightDisposeQueued"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
        events.Clear();
        Init("inflight-dispose");
        Loop.Run(Tracker.Flush, "flush");
        Report["inflightNextRunEvents"] = events;
        Report["inflightDisposeReceived"] = Json.Write(Relay.Received.FindAll(session => session.Player == "inflight-dispose"), session => (object)(session.Player + " " + session.DurationSeconds));
        Report["inflightDisposeLeft"] = (double)(TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count);
    }

    /// <summary>
    /// Relay headers UnityWebRequest refuses (SetRequestHeader throws for control characters; the transport here throws as
    /// it does): a token read with its line break is sent without it, as fetch sends it; one with a control character
    /// inside is a request that never left, as fetch's TypeError: backoff, the relay reported unreachable once (not at
    /// every flush), the sessions kept, and delivered once the game sets headers that can be sent.
    /// </summary>
    private static void RefusedHeaders()
    {
        NewProcess();
        var errors = new List<object>();
        Tracker.Error += e => errors.Add(e.Kind);
        HttpExchange.Transport = (method, url, headers, body) =>
        {
            foreach (var header in headers) foreach (var c in header.Value) if (c < 32) throw new ArgumentException("Cannot set Request Header - value contains illegal characters");
            return Relay.Exchange(method, url, headers, body);
        };
        var options = ProbeDevice.Options("headers");
        options.RelayHeaders["authorization"] = "Bearer headers\r\n";
        Init("headers", options);
        Loop.Run(() => Tracker.Start(), "start");
        Pass(3000);
        Loop.Run(Tracker.Stop, "stop");
        Loop.Run(Tracker.Flush, "flush");
        Loop.Run(() => GameCampaign.SetRelayHeaders(new Dictionary<string, string> { { "authorization", "Bearer head\u0001ers" } }), "headers");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(4000);
        Loop.Run(Tracker.Stop, "stop");
        Pass(600000); // twenty flush intervals
        Report["refusedHeaderErrors"] = new List<object>(errors);
        Loop.Run(() => GameCampaign.SetRelayHeaders(new Dictionary<string, string> { { "authorization", "Bearer headers" } }), "headers");
        Pass(400000); // past the backoff
        Report["refusedHeaderReceived"] = Json.Write(Relay.Received.FindAll(session => session.Player == "headers"), session => (object)(session.Player + " " + session.DurationSeconds));
        HttpExchange.Transport = Relay.Exchange;
    }

    private static void BadOptions()
    {
        NewProcess();
        var problems = new List<object>();
        foreach (var options in new[]
        {
            new GameCampaignOptions { ClientKey = "ck:x", UserId = "p", RelayUrl = "https://r.example", CheckpointInterval = TimeSpan.FromSeconds(-1) },
            new GameCampaignOptions { ClientKey = "ck:x", UserId = "p", RelayUrl = "https://r.example", MaxQueue = 0 },
            new GameCampaignOptions { ClientKey = "ck_no_secret", UserId = "p", RelayUrl = "https://r.example" },
            new GameCampaignOptions { ClientKey = "ck:secret\n", UserId = "p", RelayUrl = "https://r.example" },
            new GameCampaignOptions { ClientKey = "ck:x", UserId = "p", RelayUrl = "https://r.example/campaign?token=1" },
            // No scheme, another scheme, a path (no page to resolve it against outside WebGL): refused at Init, as in TypeScript.
            new GameCampaignOptions { ClientKey = "ck:x", UserId = "p", RelayUrl = "r.example/campaign" },
            new GameCampaignOptions { ClientKey = "ck:x", UserId = "p", RelayUrl = "ftp://r.example/campaign" },
            new GameCampaignOptions { ClientKey = "ck:x", UserId = "p", RelayUrl = "/campaign" },
        })
        {
            var init = GameCampaign.Init(options);
            Loop.Settle();
            problems.Add(init.IsFaulted ? ((GameCampaignException)init.Exception.InnerException).Code + " " + init.Exception.InnerException.Message : "accepted");
        }
        Report["badOptions"] = problems;
    }
}
