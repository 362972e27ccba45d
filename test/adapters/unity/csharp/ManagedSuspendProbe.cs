// A phone pausing the app (OnApplicationPause(true)): Unity runs no main-thread code until the pause ends, and the OS may
// kill the paused app there, so what the pause must keep is on disk when OnApplicationPause returns, without a
// main-thread turn after it. A program of its own (mono's full AOT gives each assembly a fixed number of trampolines,
// and ManagedLifecycleProbe's stories use nearly all of them). Prints one JSON report that
// test/adapters/unity/managed-suspend.test.ts checks. args: device folder.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedSuspendProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly FakeRelay Relay = ProbeDevice.Relay;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        ProbeDevice.Open(args[0]);
        HeldSessionsAtPause();
        PauseWhileLongQueueIsRead();
        OptOutJustBeforePause();
        NetworkBackWhileUnfocused();
        StopAndLeaveOnAFullDisk();
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    private static void Init(string player)
    {
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options(player)), "init");
    }

    /// <summary>
    /// A desktop player with Run In Background on loses focus without a pause (a window behind another) and its frames go
    /// on: the network returning there sends the queued session at once, without waiting for the game to come to the
    /// front (a paused game, which runs no frame, sends it in the first frame after the pause ends: contract scenario
    /// cs-network-returns-in-background.json).
    /// </summary>
    private static void NetworkBackWhileUnfocused()
    {
        UnityProcess.Start(Loop);
        Application.MobilePlatform = false;
        Init("unfocused-network");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(6000);
        Loop.Run(Tracker.Stop, "stop");
        Application.Reachability = NetworkReachability.NotReachable;
        ProbeDevice.Pass(1000);
        ManagedLifecycle.Instance.OnApplicationFocus(false);
        Loop.Settle();
        ProbeDevice.Pass(20000);
        var before = Relay.Received.FindAll(session => session.Player == "unfocused-network").Count;
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        ProbeDevice.Pass(1000); // a frame in the background sees the network back
        Report["unfocusedNetwork"] = before + " " + Relay.Received.FindAll(session => session.Player == "unfocused-network").Count + " " + (ManagedLifecycle.Instance.InBackground ? "background" : "front");
    }

    /// <summary>
    /// Offline on a full disk, the player plays two sessions (5 s, 7 s): each is held in memory (its queue write and its
    /// running record's refused). The disk has room again, the phone pauses the game, and the OS kills it there: both
    /// sessions are on disk when OnApplicationPause returns, and the next start-up sends both. Before (found by p47), the
    /// pause wrote the first held session only: the next write was asked for by the first one's continuation, a
    /// main-thread turn that never comes in a paused app, so the 7 s session was lost.
    /// </summary>
    private static void HeldSessionsAtPause()
    {
        UnityProcess.Start(Loop);
        Application.MobilePlatform = true;
        Init("held-pause");
        Application.Reachability = NetworkReachability.NotReachable;
        TrackerFiles.RefuseWrite = path => true;
        foreach (var ms in new[] { 5000, 7000 })
        {
            Loop.Run(() => Tracker.Start(), "start");
            ProbeDevice.Pass(ms);
            Loop.Run(Tracker.Stop, "stop");
        }
        TrackerFiles.RefuseWrite = null;
        ManagedLifecycle.Instance.OnApplicationFocus(false);
        ManagedLifecycle.Instance.OnApplicationPause(true); // no main-thread turn after it: the OS kills the paused app
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "held-pause");
        Report["heldQueuedAtPause"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
        UnityProcess.Start(Loop); // killed while paused
        Application.MobilePlatform = true;
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        Init("held-pause");
        Loop.Run(Tracker.Flush, "flush");
        var received = Relay.Received.FindAll(session => session.Player == "held-pause");
        received.Sort((a, b) => a.DurationSeconds.CompareTo(b.DurationSeconds));
        Report["heldReceived"] = Json.Write(received, session => (object)(session.Player + " " + session.DurationSeconds));
        Report["heldLeft"] = (double)(TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count);
    }
    /// <summary>
    /// A slow phone with a long backlog (400 queued sessions, each file read taking 20 ms) gets the network back and its
    /// flush starts reading them; the player leaves 20 s into a session (its last checkpoint at 15 s) and the OS kills the
    /// paused game. The pause's checkpoint is on disk when OnApplicationPause returns: the next start-up recovers 20 s.
    /// Before (found by p48), the flush read all 400 files in one file job, ahead of the pause's write: the pause gave up
    /// waiting after 1 s and the kill lost the 5 s played since the checkpoint.
    /// </summary>
    private static void PauseWhileLongQueueIsRead()
    {
        UnityProcess.Start(Loop);
        Application.MobilePlatform = true;
        Application.Reachability = NetworkReachability.NotReachable;
        Init("slow-read");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(3000);
        Loop.Run(Tracker.Stop, "stop");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "slow-read");
        var queued = TrackerFiles.JsonFiles(folder.QueueDir)[0];
        var text = File.ReadAllText(Path.Combine(folder.QueueDir, queued));
        var sessionId = queued.Substring(13, queued.Length - 13 - ".json".Length);
        for (var i = 1; i < 400; i++)
        {
            var copy = RandomIds.SessionId();
            File.WriteAllText(Path.Combine(folder.QueueDir, i.ToString("D12") + "-" + copy + ".json"), text.Replace(sessionId, copy));
        }
        UnityProcess.Start(Loop); // a later launch lists the backlog
        Application.MobilePlatform = true;
        Init("slow-read");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(20000);
        var reading = ProbeDevice.SlowDisk("read", folder.QueueDir);
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        ManagedLifecycle.Instance.Update(); // a frame sees the network back: the flush starts reading the backlog
        Loop.RunUntil(() => reading.IsSet);
        ManagedLifecycle.Instance.OnApplicationFocus(false);
        ManagedLifecycle.Instance.OnApplicationPause(true); // no main-thread turn after it: the OS kills the paused app
        var record = Json.Obj(Json.Parse(File.ReadAllText(TrackerFiles.JsonFiles(folder.RunningDir).ConvertAll(name => Path.Combine(folder.RunningDir, name))[0])));
        Report["slowReadPausedPlayedMs"] = Json.Num(record, "playedMs");
        TrackerFiles.Observer = null;
        Loop.SettleFiles(); // the killed process's worker ends its read
        UnityProcess.Start(Loop);
    }

    /// <summary>
    /// The player switches recording off in a settings screen and at once leaves the game (the same frame), which the OS
    /// then kills while paused: the choice is on disk when OnApplicationPause returns, so the next launch records nothing.
    /// Before (found by p48), the choice's write was asked for only after the ended session's record was deleted, in a
    /// later main-thread turn that a paused app never runs: the next launch recorded and sent the player's play again.
    /// </summary>
    private static void OptOutJustBeforePause()
    {
        UnityProcess.Start(Loop);
        Application.MobilePlatform = true;
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        Init("opt-out-pause");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(5000);
        Tracker.SetOptOut(true); // not awaited: the game leaves in the same frame
        ManagedLifecycle.Instance.OnApplicationFocus(false);
        ManagedLifecycle.Instance.OnApplicationPause(true);
        Loop.SettleFiles();
        UnityProcess.Start(Loop); // killed while paused
        Application.MobilePlatform = true;
        Init("opt-out-pause");
        string started = null;
        Loop.Run(async () => started = await Tracker.Start(), "start");
        ProbeDevice.Pass(5000);
        Loop.Run(Tracker.Stop, "stop");
        Loop.Run(Tracker.Flush, "flush");
        Report["optOutAtPause"] = started == "" ? "opted out" : "recording";
        Report["optOutReceived"] = (double)Relay.Received.FindAll(session => session.Player == "opt-out-pause").Count;
    }

    /// <summary>
    /// A desktop player with Run In Background on and a full disk: the player ends a session and switches to another
    /// window in the same frame (the game's Stop not awaited). The background flush sends the session the stop holds in
    /// memory, as the TypeScript tracker's does (its queue indexes a session before its write ends). Before (found by
    /// p52, generated.test.ts seed 52 story 4 with the new stopAndLeave step), the flush listed the queue before the
    /// failed write's continuation indexed the session (a failing disk skips the choice's read the flush waits for
    /// otherwise): nothing was sent, and the session, held in memory only, waited for a later flush.
    /// </summary>
    private static void StopAndLeaveOnAFullDisk()
    {
        UnityProcess.Start(Loop);
        Application.MobilePlatform = false;
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        Init("full-disk-leave");
        TrackerFiles.RefuseWrite = path => true;
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(5000);
        // A slow disk refuses the stop's queue write in 20 ms: the background flush starts meanwhile (found by chance, about
        // one story in two, at the speed of a test machine's disk).
        ProbeDevice.SlowDisk("write", PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "full-disk-leave").QueueDir);
        Tracker.Stop(); // the game's, not waited for
        ManagedLifecycle.Instance.OnApplicationFocus(false);
        Loop.Settle();
        TrackerFiles.Observer = null;
        Report["fullDiskLeaveReceived"] = (double)Relay.Received.FindAll(session => session.Player == "full-disk-leave").Count;
        TrackerFiles.RefuseWrite = null;
    }
}
