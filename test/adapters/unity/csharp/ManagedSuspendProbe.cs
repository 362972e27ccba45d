// A phone pausing the app (OnApplicationPause(true)): Unity runs no main-thread code until the pause ends, and the OS may
// kill the paused app there, so what the pause must keep is on disk when OnApplicationPause returns, without a
// main-thread turn after it. A program of its own (mono's full AOT gives each assembly a fixed number of trampolines,
// and ManagedLifecycleProbe's stories use nearly all of them). Prints one JSON report that
// test/adapters/unity/managed-suspend.test.ts checks. args: device folder.
using System;
using System.Collections.Generic;
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
        NetworkBackWhileUnfocused();
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
}
