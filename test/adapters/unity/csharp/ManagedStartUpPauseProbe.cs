// A phone pausing the app (OnApplicationPause(true)) while the tracker's start-up or a checkpoint still works through a
// long backlog on a slow disk: the pause's checkpoint must be on disk when OnApplicationPause returns (it waits 1 s at
// most), since the OS may kill the paused app there. A program of its own, as ManagedSuspendProbe (mono full AOT's
// per-assembly trampolines). Prints one JSON report that test/adapters/unity/managed-suspend.test.ts checks. args: device folder.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedStartUpPauseProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly FakeRelay Relay = ProbeDevice.Relay;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();
    private static string device;

    /// <summary>Files in a backlog: at 20 ms a file (a slow phone's flash), 8 s of file work.</summary>
    private const int Backlog = 400;

    private static int Main(string[] args)
    {
        device = args[0];
        ProbeDevice.Open(Path.Combine(device, "own"));
        PauseWhileAdopting();
        PauseWhileMarksAreForgotten();
        PauseWhileTakenAreDeleted();
        PauseWhileHeldAreWritten();
        PauseWhileExpiring();
        OwnJudgedToldAtItsStartUp();
        PauseWhileAnsweredAreDeleted();
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    private static void UseDataPath(string path)
    {
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", path);
    }

    /// <summary>A new process of the game on a phone, offline.</summary>
    private static void Launch()
    {
        UnityProcess.Start(Loop);
        Application.MobilePlatform = true;
        Application.Reachability = NetworkReachability.NotReachable;
    }

    /// <summary><paramref name="player"/> plays a 3 s session offline; its queued file is copied to <see cref="Backlog"/> sessions in all.</summary>
    private static void QueueBacklog(string player)
    {
        Launch();
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options(player)), "init");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(3000);
        Loop.Run(Tracker.Stop, "stop");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, player);
        var queued = TrackerFiles.JsonFiles(folder.QueueDir)[0];
        var text = File.ReadAllText(Path.Combine(folder.QueueDir, queued));
        var sessionId = queued.Substring(13, queued.Length - 13 - ".json".Length);
        for (var i = 1; i < Backlog; i++)
        {
            var copy = RandomIds.SessionId();
            File.WriteAllText(Path.Combine(folder.QueueDir, i.ToString("D12") + "-" + copy + ".json"), text.Replace(sessionId, copy));
        }
    }

    /// <summary>The game leaves (the OS kills it there, with no main-thread turn after the pause); the play time its running record holds as OnApplicationPause returns (-1: none).</summary>
    private static double PauseAndKill(PlayerFolder folder)
    {
        ManagedLifecycle.Instance.OnApplicationFocus(false);
        ManagedLifecycle.Instance.OnApplicationPause(true);
        var records = TrackerFiles.JsonFiles(folder.RunningDir);
        var played = records.Count == 0 ? -1 : Json.Num(Json.Obj(Json.Parse(File.ReadAllText(Path.Combine(folder.RunningDir, records[0])))), "playedMs").Value;
        // Killed: nothing more reaches the disk (the worker's writes and deletes from here on fail, left to the next launch).
        TrackerFiles.RefuseWrite = path => true;
        TrackerFiles.Observer = null;
        Loop.SettleFiles();
        TrackerFiles.RefuseWrite = null;
        return played;
    }


    /// <summary>
    /// An Android phone gave this app the other data path (internal or shared storage) in an earlier run, which queued a
    /// backlog there. This launch gets its usual path back: its start-up takes the backlog in (each file copied, flushed,
    /// its original deleted) while the player already plays, and 5 s in the phone pauses the game and kills it. The
    /// session's checkpoint is on disk when OnApplicationPause returns, and the next launch sends it (5 s) and the backlog.
    /// Before (found by p49), the whole adoption was one file job ahead of every write of this run: the pause gave up
    /// waiting after 1 s with no record of the session on disk, and the kill lost it.
    /// </summary>
    private static void PauseWhileAdopting()
    {
        var earlier = Path.Combine(device, "adopt-earlier");
        var usual = Path.Combine(device, "adopt-usual");
        UseDataPath(earlier);
        QueueBacklog("adopt-pause");
        Launch();
        UseDataPath(usual);
        TrackerFiles.OtherDataPaths = dataPath => dataPath == usual ? new[] { earlier } : new string[0];
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "adopt-pause");
        var adopting = ProbeDevice.SlowDisk("delete", earlier);
        GameCampaign.Init(ProbeDevice.Options("adopt-pause")); // not waited for: the game plays while the tracker starts up
        Tracker.Start();
        ProbeDevice.MonotonicMs += 5000;
        Loop.RunUntil(() => adopting.IsSet);
        Report["adoptingPausedPlayedMs"] = PauseAndKill(folder);
        Launch();
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("adopt-pause")), "init");
        Loop.Run(Tracker.Flush, "flush");
        var received = Relay.Received.FindAll(session => session.Player == "adopt-pause");
        Report["adoptingReceived"] = (double)received.Count;
        Report["adoptingRecovered"] = (double)received.FindAll(session => session.DurationSeconds == 5).Count;
        TrackerFiles.OtherDataPaths = dataPath => new string[0];
        UseDataPath(Path.Combine(device, "own"));
    }

    /// <summary>
    /// An earlier run on the other data path took in this path's backlog while this path's deletes failed (shared storage
    /// read-only), and marked each of 400 originals there (<c>{name}.adopted</c>); the originals were deleted since (by
    /// hand, or a run here), and that path was given back. This launch's start-up forgets the 400 marks while the player
    /// already plays, and 5 s in the phone pauses the game and kills it. The pause's checkpoint (5 s) is on disk when
    /// OnApplicationPause returns. Before (found by p50), the marks were deleted in the adoption's last file job
    /// (<c>EndAdoption</c>, 8 s at 20 ms a delete): the pause gave up waiting after 1 s with no record on disk.
    /// </summary>
    private static void PauseWhileMarksAreForgotten()
    {
        var earlier = Path.Combine(device, "marks-earlier");
        var usual = Path.Combine(device, "marks-usual");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "marks-pause");
        Directory.CreateDirectory(folder.Under(earlier).QueueDir);
        var marks = folder.Under(usual).QueueDir;
        Directory.CreateDirectory(marks);
        for (var i = 0; i < Backlog; i++) File.WriteAllText(Path.Combine(marks, i.ToString("D12") + "-" + RandomIds.SessionId() + ".json.adopted"), "");
        Launch();
        UseDataPath(usual);
        TrackerFiles.OtherDataPaths = dataPath => dataPath == usual ? new[] { earlier } : new string[0];
        var forgetting = ProbeDevice.SlowDisk("delete", marks);
        GameCampaign.Init(ProbeDevice.Options("marks-pause")); // not waited for: the game plays while the tracker starts up
        Tracker.Start();
        ProbeDevice.MonotonicMs += 5000;
        Loop.RunUntil(() => forgetting.IsSet);
        Report["forgettingPausedPlayedMs"] = PauseAndKill(folder.Under(usual));
        TrackerFiles.OtherDataPaths = dataPath => new string[0];
        UseDataPath(Path.Combine(device, "own"));
    }

    /// <summary>
    /// A run on the other data path took in this path's backlog of 400 sessions while this path refused deletes (shared
    /// storage read-only), and marked there each original it could not delete (<c>{name}.adopted</c>). Unity gives this path
    /// back: its start-up deletes the 400 originals and their marks while the player already plays, and 5 s in the phone
    /// pauses the game and kills it. The pause's checkpoint (5 s) is on disk when OnApplicationPause returns. Before (found
    /// by p50), those deletes were part of the adoption's first file job (<c>AdoptionOf</c>, 16 s at 20 ms a delete).
    /// </summary>
    private static void PauseWhileTakenAreDeleted()
    {
        var usual = Path.Combine(device, "taken-usual");
        var earlier = Path.Combine(device, "taken-earlier");
        UseDataPath(usual);
        QueueBacklog("taken-pause");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "taken-pause");
        var marks = folder.Under(earlier).QueueDir;
        Directory.CreateDirectory(marks);
        foreach (var name in TrackerFiles.JsonFiles(folder.Under(usual).QueueDir)) File.WriteAllText(Path.Combine(marks, name + ".adopted"), "");
        Launch();
        TrackerFiles.OtherDataPaths = dataPath => dataPath == usual ? new[] { earlier } : new string[0];
        var deleting = ProbeDevice.SlowDisk("delete", usual);
        GameCampaign.Init(ProbeDevice.Options("taken-pause")); // not waited for: the game plays while the tracker starts up
        Tracker.Start();
        ProbeDevice.MonotonicMs += 5000;
        Loop.RunUntil(() => deleting.IsSet);
        Report["takenPausedPlayedMs"] = PauseAndKill(folder.Under(usual));
        TrackerFiles.OtherDataPaths = dataPath => new string[0];
        UseDataPath(Path.Combine(device, "own"));
    }

    /// <summary>
    /// Offline on a full disk, the player played 100 short sessions (each held in memory: its write refused). The disk has
    /// room again as the session now played reaches 15 s; at its checkpoint the tracker writes the held sessions, and 5 s
    /// later, while it still writes them to a slow disk, the phone pauses the game and kills it. The pause's checkpoint
    /// (20 s) is on disk when OnApplicationPause returns. Before (found by p49), the checkpoint's write of all held sessions
    /// was one file job: the pause's checkpoint waited behind it past its 1 s, and the kill lost the 5 s since 15 s.
    /// </summary>
    private static void PauseWhileHeldAreWritten()
    {
        Launch();
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("held-checkpoint")), "init");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "held-checkpoint");
        TrackerFiles.RefuseWrite = path => true;
        for (var i = 0; i < 100; i++)
        {
            Loop.Run(() => Tracker.Start(), "start");
            ProbeDevice.Pass(1500);
            Loop.Run(Tracker.Stop, "stop");
        }
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(14000);
        TrackerFiles.RefuseWrite = null;
        var writing = ProbeDevice.SlowDisk("write", folder.QueueDir);
        ProbeDevice.MonotonicMs += 1000;
        ManagedLifecycle.Instance.Update(); // the 15 s checkpoint: the record, then the held sessions
        Loop.RunUntil(() => writing.IsSet);
        ProbeDevice.MonotonicMs += 5000;
        Report["heldPausedPlayedMs"] = PauseAndKill(folder);
    }

    /// <summary>
    /// Another player of the game on this phone left 400 queued sessions, now over 30 days old. This player's start-up
    /// deletes them (expired) while the player already plays, and 5 s in the phone pauses the game and kills it. The
    /// pause's checkpoint (5 s) is on disk when OnApplicationPause returns. Before (found by p49), the expiry was one file
    /// job: the pause's checkpoint waited behind it past its 1 s, and the kill lost the 5 s (the record said 0). The game
    /// is told of each of the 400 as dropped, over the two launches. Before (found by p50), the sessions the slices before
    /// the kill deleted were gone and never reported: the report came after the whole expiry, which the kill cut short.
    /// </summary>
    private static void PauseWhileExpiring()
    {
        QueueBacklog("long-gone");
        ProbeDevice.MonotonicMs += 31 * 86400000.0;
        Launch();
        var gone = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "long-gone");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "expiry-pause");
        var expiring = ProbeDevice.SlowDisk("read", gone.QueueDir);
        ListenForExpired();
        GameCampaign.Init(ProbeDevice.Options("expiry-pause"));
        Tracker.Start();
        ProbeDevice.MonotonicMs += 5000;
        Loop.RunUntil(() => expiring.IsSet);
        Report["expiringPausedPlayedMs"] = PauseAndKill(folder);
        Launch();
        ListenForExpired();
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("expiry-pause")), "init");
        Report["expiredLeft"] = (double)Directory.GetFiles(gone.QueueDir).Length; // the judged ones renamed before the kill too
        Report["expiredTold"] = (double)ExpiredTold.Count;
    }

    /// <summary>
    /// Another player's start-up judged this player's queued session expired (renamed it <c>….json.dropped</c>) and was
    /// killed before the game was told; this player returns first. Its own start-up tells the game (<c>expired</c>) and
    /// deletes the file: no other player need come back for the game to hear of it.
    /// </summary>
    private static void OwnJudgedToldAtItsStartUp()
    {
        Launch();
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("judged-own")), "init");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(3000);
        Loop.Run(Tracker.Stop, "stop");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "judged-own");
        var queued = Path.Combine(folder.QueueDir, TrackerFiles.JsonFiles(folder.QueueDir)[0]);
        File.Move(queued, queued + ".expired" + DroppedFiles.Suffix);
        ProbeDevice.MonotonicMs += 31 * 86400000.0;
        Launch();
        var told = new List<object>();
        Tracker.Dropped += dropped => { if (dropped.Session.UserId == "judged-own") told.Add(dropped.Reason); };
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("judged-own")), "init");
        Report["ownJudgedTold"] = told;
        Report["ownJudgedLeft"] = (double)Directory.GetFiles(folder.QueueDir).Length;
    }

    /// <summary>The long-gone player's sessions the game was told of as dropped (<c>expired</c>), over both launches.</summary>
    private static readonly HashSet<string> ExpiredTold = new HashSet<string>();

    private static void OnDropped(DroppedEvent dropped)
    {
        if (dropped.Reason == "expired" && dropped.Session.UserId == "long-gone") ExpiredTold.Add(dropped.SessionId);
    }

    /// <summary>Hears <see cref="Tracker.Dropped"/> in this launch (once, whether or not a launch forgot the last one's handlers).</summary>
    private static void ListenForExpired()
    {
        Tracker.Dropped -= OnDropped;
        Tracker.Dropped += OnDropped;
    }

    /// <summary>
    /// A backlog of 400 sessions is sent while the phone's storage refuses deletes (shared storage remounted read-only for a
    /// while): each is answered and stays on disk, its delete to be tried again at each flush. Storage takes deletes again;
    /// 20 s into a session (its checkpoint at 15 s) the game's flush deletes them from a slow disk, and the phone pauses the
    /// game then and kills it. The pause's checkpoint (20 s) is on disk when OnApplicationPause returns. Before (found by
    /// p49), the 400 deletes were one file job: the pause's checkpoint waited behind them past its 1 s wait.
    /// </summary>
    private static void PauseWhileAnsweredAreDeleted()
    {
        QueueBacklog("answered");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "answered");
        Launch();
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        TrackerFiles.RefuseWrite = path => path.StartsWith(folder.QueueDir, StringComparison.Ordinal);
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("answered")), "init"); // its start-up flush sends the 400
        TrackerFiles.RefuseWrite = null;
        Report["answeredUndeleted"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(20000);
        var deleting = ProbeDevice.SlowDisk("delete", folder.QueueDir);
        Tracker.Flush(); // the game's own, not waited for
        Loop.RunUntil(() => deleting.IsSet);
        Report["answeredPausedPlayedMs"] = PauseAndKill(folder);
    }
}
