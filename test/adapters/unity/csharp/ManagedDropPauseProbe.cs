// A phone pausing the app (OnApplicationPause(true)) while the tracker drops a stored session on the file worker: the
// pause waits for that file work, the OS may kill the paused app there, and no main-thread step (where the game is told)
// runs in between. Each drop must be told to the game at the next launch if not before: overflow at a full queue, a
// session the relay refused (FAILED), a recovered session dropped at start-up. An erasure deletes the files of drops not yet deleted too. A program of its own, as
// ManagedStartUpPauseProbe. Prints one JSON report that test/adapters/unity/managed-suspend.test.ts checks. args: device folder.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedDropPauseProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly FakeRelay Relay = ProbeDevice.Relay;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();
    private static string device;

    private static int Main(string[] args)
    {
        device = args[0];
        ProbeDevice.Open(device);
        EvictedAtPause();
        RejectedAtPause();
        RecoveredDroppedAtPause();
        ErasedWithUndeletedDrops();
        ErasedOnTheOtherDataPath();
        AdoptedFromTheOtherDataPath();
        OddNamesLeftDropped();
        LiveRunsDrops();
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    /// <summary>The player of this launch (an erased session's drop carries no session to name it).</summary>
    private static string player;

    /// <summary>A new process of <paramref name="playing"/>'s game on a phone, offline, telling <see cref="Told"/> of every drop.</summary>
    private static void Launch(string playing)
    {
        player = playing;
        UnityProcess.Start(Loop);
        Application.MobilePlatform = true;
        Application.Reachability = NetworkReachability.NotReachable;
        Tracker.Dropped -= OnDropped;
        Tracker.Dropped += OnDropped;
    }

    /// <summary>Every drop told to the game, over all launches: "{player} {reason}".</summary>
    private static readonly List<string> Told = new List<string>();
    /// <summary>The session id of every drop told, over all launches.</summary>
    private static readonly List<string> ToldIds = new List<string>();

    private static void OnDropped(DroppedEvent dropped)
    {
        ToldIds.Add(dropped.SessionId);
        Told.Add((dropped.Session == null ? player : dropped.Session.UserId) + " " + dropped.Reason);
    }

    private static List<object> ToldOf(string of)
    {
        var told = new List<object>();
        foreach (var line in Told) if (line.StartsWith(of + " ", StringComparison.Ordinal)) told.Add(line.Substring(of.Length + 1));
        return told;
    }

    private static GameCampaignOptions Options(string player)
    {
        var options = ProbeDevice.Options(player);
        options.MaxQueue = 2;
        return options;
    }

    private static void Play(double ms)
    {
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(ms);
        Loop.Run(Tracker.Stop, "stop");
    }

    /// <summary>The game leaves (the OS kills it there, with no main-thread turn after the pause).</summary>
    private static void PauseAndKill()
    {
        ManagedLifecycle.Instance.OnApplicationFocus(false);
        ManagedLifecycle.Instance.OnApplicationPause(true);
        // Killed: nothing more reaches the disk (the worker's writes and deletes from here on fail, left to the next launch).
        TrackerFiles.RefuseWrite = path => true;
        TrackerFiles.Observer = null;
        Loop.SettleFiles();
        TrackerFiles.RefuseWrite = null;
    }


    /// <summary>
    /// Offline, the player's queue (maxQueue 2) holds two sessions; the player ends a third (the game's stop, not waited
    /// for), which evicts the oldest, and the phone pauses the game while the eviction reads it, then kills it. The next
    /// launch tells the game of it (<c>overflow</c>). Before (found by p51), the eviction's file job deleted it before the
    /// pause returned, and the report, left to a main-thread step the paused app never ran, was lost with the session.
    /// </summary>
    private static void EvictedAtPause()
    {
        Launch("evicted");
        Loop.Run(() => GameCampaign.Init(Options("evicted")), "init");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "evicted");
        Play(3000);
        Play(4000);
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(5000);
        var evicting = ProbeDevice.SlowDisk("read", folder.QueueDir);
        Tracker.Stop(); // the game's, not waited for
        Loop.RunUntil(() => evicting.IsSet);
        PauseAndKill();
        Report["evictedQueuedAtKill"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
        Launch("evicted");
        Loop.Run(() => GameCampaign.Init(Options("evicted")), "init");
        Report["evictedTold"] = ToldOf("evicted");
        Report["evictedLeft"] = (double)Directory.GetFiles(folder.QueueDir).Length;
    }

    /// <summary>
    /// A session queued offline is sent as the network returns; the relay refuses it (FAILED), and the phone pauses the
    /// game while the flush removes it from a slow disk, then kills it. The next launch tells the game (<c>rejected</c>).
    /// Before (found by p51), the delete ran before the pause returned and the report was lost with the session.
    /// </summary>
    private static void RejectedAtPause()
    {
        Launch("refused");
        Loop.Run(() => GameCampaign.Init(Options("refused")), "init");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "refused");
        Play(3000);
        Relay.Mode = "reject";
        Relay.RejectReason = "refused by the service";
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        var removing = ProbeDevice.SlowDisk("delete", folder.QueueDir);
        Tracker.Flush(); // the game's own, not waited for
        Loop.RunUntil(() => removing.IsSet);
        PauseAndKill();
        Relay.Mode = "accept";
        Report["refusedQueuedAtKill"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
        Launch("refused");
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        Loop.Run(() => GameCampaign.Init(Options("refused")), "init");
        Loop.Run(Tracker.Flush, "flush");
        Report["refusedTold"] = ToldOf("refused");
        Report["refusedReceived"] = (double)Relay.Received.FindAll(session => session.Player == "refused").Count;
        Report["refusedLeft"] = (double)Directory.GetFiles(folder.QueueDir).Length;
    }

    /// <summary>
    /// The OS killed the game 0.4 s into a session (its record says so). The next launch's start-up recovers it and drops
    /// it (<c>too-short</c>), and the phone pauses the game while the record is deleted from a slow disk, then kills it. The
    /// launch after tells the game. Before (found by p51), the record's delete ran before the pause returned and the
    /// report, made once it was done, on a main-thread step the paused app never ran, was lost.
    /// </summary>
    private static void RecoveredDroppedAtPause()
    {
        Launch("short");
        Loop.Run(() => GameCampaign.Init(Options("short")), "init");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "short");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(400);
        PauseAndKill();
        Launch("short");
        var deleting = ProbeDevice.SlowDisk("delete", folder.RunningDir);
        GameCampaign.Init(Options("short")); // not waited for: the start-up recovers the record
        Loop.RunUntil(() => deleting.IsSet);
        PauseAndKill();
        Report["recoveredToldBeforeKill"] = ToldOf("short");
        Launch("short");
        Loop.Run(() => GameCampaign.Init(Options("short")), "init");
        Report["recoveredTold"] = ToldOf("short");
        Report["recoveredLeft"] = (double)DroppedFiles.In(folder.RunningDir).Count;
    }

    /// <summary>
    /// Storage refuses the deletes of dropped files while a third session overflows the queue (the drop told, its file
    /// left for the next start-up); storage takes deletes again and the player erases their data in this run. Nothing of
    /// theirs is left in their folder (the dropped file told <c>erased</c> too). Before (found by p51), the dropped file
    /// stayed on the device after the erasure.
    /// </summary>
    private static void ErasedWithUndeletedDrops()
    {
        Launch("erasing");
        Loop.Run(() => GameCampaign.Init(Options("erasing")), "init");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "erasing");
        TrackerFiles.RefuseWrite = path => path.EndsWith(".dropped", StringComparison.Ordinal);
        Play(3000);
        Play(4000);
        Play(5000);
        TrackerFiles.RefuseWrite = null;
        Report["erasingLeftBefore"] = (double)Directory.GetFiles(folder.QueueDir).Length;
        Loop.Run(Tracker.DeleteStoredData, "erase");
        Report["erasedTold"] = ToldOf("erasing");
        var left = new List<string>(Directory.GetFiles(folder.QueueDir));
        left.AddRange(Directory.GetFiles(folder.RunningDir));
        Report["erasedLeft"] = (double)left.Count;
    }

    /// <summary>
    /// An Android phone gave this app its other data path (internal or shared storage) in an earlier run, killed while a
    /// session it dropped was renamed and not yet deleted there (the file written here as that kill left it). This launch
    /// has its usual path back, and the player erases their data: the dropped file on the other path goes too (told
    /// <c>erased</c>). Before (found by p51), the erasure did not look there. The file appears there after the start-up (shared
    /// storage mounted late), as the start-up's adoption takes such files in (<see cref="AdoptedFromTheOtherDataPath"/>).
    /// </summary>
    private static void ErasedOnTheOtherDataPath()
    {
        var usual = Path.Combine(device, "erase-usual");
        var earlier = Path.Combine(device, "erase-earlier");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "erasing-other");
        var other = folder.Under(earlier).QueueDir;
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", usual);
        TrackerFiles.OtherDataPaths = dataPath => dataPath == usual ? new[] { earlier } : new string[0];
        Launch("erasing-other");
        Loop.Run(() => GameCampaign.Init(Options("erasing-other")), "init");
        Directory.CreateDirectory(other);
        var session = Bridge.Args("sessionId", "0e5a4c7e-3b1f-4d2a-9c8b-7a6f5e4d3c2b", "userId", "erasing-other", "startedAt", "2026-06-01T11:00:00.000Z", "endedAt", "2026-06-01T11:00:03.000Z", "durationSeconds", 3.0);
        File.WriteAllText(Path.Combine(other, "000000000000-0e5a4c7e-3b1f-4d2a-9c8b-7a6f5e4d3c2b.json.overflow" + DroppedFiles.Suffix), Json.Serialize(session));
        Loop.Run(Tracker.DeleteStoredData, "erase");
        Report["otherPathErasedTold"] = ToldOf("erasing-other");
        Report["otherPathLeft"] = (double)Directory.GetFiles(other).Length;
        TrackerFiles.OtherDataPaths = dataPath => new string[0];
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", device);
    }

    /// <summary>
    /// An Android phone gave this app its other data path in an earlier run, killed there after it renamed a queued session
    /// it dropped (overflow) and a recovered session's record it dropped (too-short), before it told the game (the files
    /// written there as that kill left them). This launch has its usual path back: its start-up takes them in with the
    /// rest of that folder, tells the game of both, and deletes them. Before (found by p52), the adoption took no dropped
    /// file in: they were told only when Unity gave that path back, maybe never.
    /// </summary>
    private static void AdoptedFromTheOtherDataPath()
    {
        var usual = Path.Combine(device, "adopt-usual");
        var earlier = Path.Combine(device, "adopt-earlier");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "adopting-drops");
        var there = folder.Under(earlier);
        Directory.CreateDirectory(there.QueueDir);
        Directory.CreateDirectory(there.RunningDir);
        var session = Bridge.Args("sessionId", "5b0e2f5c-8d0a-4c6e-9a53-1f2e3d4c5b6a", "userId", "adopting-drops", "startedAt", "2026-06-01T11:00:00.000Z", "endedAt", "2026-06-01T11:00:03.000Z", "durationSeconds", 3.0);
        File.WriteAllText(Path.Combine(there.QueueDir, "000000000000-5b0e2f5c-8d0a-4c6e-9a53-1f2e3d4c5b6a.json.overflow" + DroppedFiles.Suffix), Json.Serialize(session));
        var record = Bridge.Args("sessionId", "6c1f3a6d-9e1b-4d7f-8b64-2a3b4c5d6e7f", "userId", "adopting-drops", "startedAtMs", 1780311600000.0, "spanMs", 400.0, "playedMs", 400.0, "owner", "gone-run");
        File.WriteAllText(Path.Combine(there.RunningDir, "6c1f3a6d-9e1b-4d7f-8b64-2a3b4c5d6e7f.json.too-short" + DroppedFiles.Suffix), Json.Serialize(record));
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", usual);
        TrackerFiles.OtherDataPaths = dataPath => dataPath == usual ? new[] { earlier } : new string[0];
        Launch("adopting-drops");
        Loop.Run(() => GameCampaign.Init(Options("adopting-drops")), "init");
        var told = ToldOf("adopting-drops");
        told.Sort((a, b) => string.CompareOrdinal((string)a, (string)b));
        Report["otherPathDropsTold"] = told;
        var left = new List<string>();
        foreach (var dir in new[] { there.QueueDir, there.RunningDir, folder.Under(usual).QueueDir, folder.Under(usual).RunningDir })
            if (Directory.Exists(dir)) left.AddRange(Directory.GetFiles(dir));
        Report["otherPathDropsLeft"] = (double)left.Count;
        TrackerFiles.OtherDataPaths = dataPath => new string[0];
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", device);
    }

    /// <summary>
    /// A kill left two dropped running records whose names this SDK does not write (the contract's <c>storage rename</c>:
    /// a file renamed by hand or by another tool): a session id with dots and one holding <c>.json</c>. The start-up tells
    /// each with its own id and its reason. Before (found by p52), the name was cut at its first <c>.json</c>: the second
    /// was told as session <c>s</c> with the reason <c>json.too-short</c> (a reason no game knows).
    /// </summary>
    private static void OddNamesLeftDropped()
    {
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "odd-names");
        Directory.CreateDirectory(folder.RunningDir);
        foreach (var id in new[] { "a.b.c", "s.json" })
        {
            var record = Bridge.Args("userId", "odd-names", "startedAtMs", 1780311600000.0, "spanMs", 400.0, "playedMs", 400.0, "owner", "gone-run");
            File.WriteAllText(Path.Combine(folder.RunningDir, id + ".json.too-short" + DroppedFiles.Suffix), Json.Serialize(record));
        }
        var first = ToldIds.Count;
        Launch("odd-names");
        Loop.Run(() => GameCampaign.Init(Options("odd-names")), "init");
        var told = new List<object>();
        for (var i = first; i < ToldIds.Count; i++) told.Add(ToldIds[i] + " " + Told[i].Substring(Told[i].IndexOf(' ') + 1));
        Report["oddNamesTold"] = told;
        Report["oddNamesLeft"] = (double)Directory.GetFiles(folder.RunningDir).Length;
    }

    /// <summary>
    /// A desktop game started twice on one folder: the first copy (its run's lock held) has renamed a
    /// session it dropped (overflow) and is about to tell its game. The second copy starts: it leaves that file to the first
    /// copy. Once the first copy is gone (killed before its tell), the next start-up tells it. Before (found by p52), every
    /// start-up told every dropped file it found, so the drop was told by both copies (and the name, which now holds the run,
    /// was told with the reason <c>overflow.{run}</c>).
    /// </summary>
    private static void LiveRunsDrops()
    {
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "two-copies");
        Directory.CreateDirectory(folder.QueueDir);
        var session = Bridge.Args("sessionId", "7d2a4b7e-0f2c-4e8a-9b75-3c4d5e6f7a8b", "userId", "two-copies", "startedAt", "2026-06-01T11:00:00.000Z", "endedAt", "2026-06-01T11:00:03.000Z", "durationSeconds", 3.0);
        // The first copy's lock: its file, locked by that process (POSIX record locks are per process, so one lock taken in
        // this process would not stop it: the first copy's lock refuses as another process's does).
        Directory.CreateDirectory(folder.AliveDir);
        var firstCopyLock = Path.Combine(folder.AliveDir, "firstCopyRun.lock");
        File.WriteAllBytes(firstCopyLock, new byte[0]);
        AliveLock.LockRegion = stream =>
        {
            if (stream.Name == firstCopyLock) throw new IOException("Resource temporarily unavailable");
            stream.Lock(0, 1);
        };
        File.WriteAllText(Path.Combine(folder.QueueDir, "000000000000-7d2a4b7e-0f2c-4e8a-9b75-3c4d5e6f7a8b.json.overflow.firstCopyRun" + DroppedFiles.Suffix), Json.Serialize(session));
        Launch("two-copies");
        Loop.Run(() => GameCampaign.Init(Options("two-copies")), "init");
        Report["liveCopyToldBySecond"] = ToldOf("two-copies");
        Report["liveCopyLeft"] = (double)Directory.GetFiles(folder.QueueDir).Length;
        AliveLock.LockRegion = stream => stream.Lock(0, 1); // the first copy killed: its lock free, its file left
        Launch("two-copies");
        Loop.Run(() => GameCampaign.Init(Options("two-copies")), "init");
        Report["goneCopyTold"] = ToldOf("two-copies");
        Report["goneCopyLeft"] = (double)Directory.GetFiles(folder.QueueDir).Length;
    }
}
