// The player's own calls while the managed tracker's flush has a request in flight (core/tracker/tracker.ts holds them to
// the flush lock): erasure and the off switch, called in one frame with a flush. A program of its own (mono's full AOT
// gives each assembly a fixed number of trampolines, and ManagedLifecycleProbe's stories use nearly all of them). Prints
// one JSON report that test/adapters/unity/managed-flight.test.ts checks. args: device folder.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedFlightProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly FakeRelay Relay = ProbeDevice.Relay;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        ProbeDevice.Open(args[0]);
        EraseThenFlush(false);
        EraseThenFlush(true);
        FlushThenErase();
        OptOutDuringFlush();
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    private static void Init(string player)
    {
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options(player)), "init");
    }

    /// <summary>A new process where <paramref name="player"/> plays a 3 s session offline: it is queued, and the device is online again.</summary>
    private static void QueuedOffline(string player)
    {
        UnityProcess.Start(Loop);
        Init(player);
        Application.Reachability = NetworkReachability.NotReachable;
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(3000);
        Loop.Run(Tracker.Stop, "stop");
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
    }

    /// <summary>The tracker's events from now on, as "flushed {status}", "dropped {reason}", "error {kind}".</summary>
    private static List<object> Events()
    {
        var events = new List<object>();
        Tracker.Flushed += e => { foreach (var result in e.Results) events.Add("flushed " + result.Status); };
        Tracker.Dropped += e => events.Add("dropped " + e.Reason);
        Tracker.Error += e => events.Add("error " + e.Kind);
        return events;
    }

    /// <summary>Requests wait until the returned list's actions are run (each lets one reach the relay and answer).</summary>
    private static List<Action> HoldRequests()
    {
        var held = new List<Action>();
        HttpExchange.Transport = (method, url, headers, body) =>
        {
            var answer = new TaskCompletionSource<HttpAnswer>();
            held.Add(() => answer.SetResult(Relay.Answer(method, url, headers, body)));
            return answer.Task;
        };
        return held;
    }

    private static void Answer(List<Action> held)
    {
        while (held.Count > 0)
        {
            var next = held[0];
            held.RemoveAt(0);
            next();
            Loop.Settle();
        }
    }

    private static List<object> ReceivedOf(string player)
    {
        return Json.Write(Relay.Received.FindAll(session => session.Player == player), session => (object)(session.Player + " " + session.DurationSeconds));
    }

    private static double Left(string player)
    {
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, player);
        return TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count;
    }

    /// <summary>
    /// The game erases the player's data and asks for a flush while the erasure is under way (a "delete my data" button
    /// whose screen then flushes what is left; or a timer's flush in a frame meanwhile): the erasure comes first, as
    /// core/tracker/tracker.ts deleteStoredData holds the flush lock while it erases, so the queued session is reported
    /// erased and never sent. Before (found by p47), the erasure waited only for a flush already running: a flush asked for
    /// once it was under way read the queue, sent the session, the erasure deleted it (dropped, erased) and the relay's
    /// answer then reported it flushed as well: one session both recorded by the service and reported erased.
    /// <paramref name="whileListing"/>: the flush is asked for as the erasure lists the queue (the file worker waits until
    /// the main thread has asked), with storage failing (a running record's write refused by a full disk: the flush then
    /// reads no stored choice first, and its read of the queue is asked for at once), which lost the race every time;
    /// otherwise in the same frame as the erasure, which lost it at times.
    /// </summary>
    private static void EraseThenFlush(bool whileListing)
    {
        var player = whileListing ? "erase-listing-flush" : "erase-flush";
        var key = whileListing ? "listingFlush" : "eraseFlush";
        QueuedOffline(player);
        if (whileListing)
        {
            TrackerFiles.RefuseWrite = path => true;
            Loop.Run(() => Tracker.Start(), "start");
            TrackerFiles.RefuseWrite = null;
        }
        var events = Events();
        var held = HoldRequests();
        Task erasing = null, flushing = null;
        if (whileListing)
        {
            var queueDir = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, player).QueueDir;
            var asked = new ManualResetEvent(false);
            TrackerFiles.Observer = (operation, path) =>
            {
                if (operation != "list" || path != queueDir) return;
                TrackerFiles.Observer = null;
                Loop.Post(_ => { flushing = Tracker.Flush(); asked.Set(); }, null);
                asked.WaitOne(10000);
            };
            Loop.Run(() => erasing = Tracker.DeleteStoredData(), "erase");
            TrackerFiles.Observer = null;
        }
        else
        {
            Loop.Run(() =>
            {
                erasing = Tracker.DeleteStoredData();
                flushing = Tracker.Flush();
                return Task.FromResult(0);
            }, "erase and flush");
        }
        Loop.Settle();
        Report[key + "Held"] = (double)held.Count;
        Answer(held);
        HttpExchange.Transport = Relay.Exchange;
        Report[key + "Events"] = events;
        Report[key + "Tasks"] = erasing.Status + " " + (flushing == null ? "none" : flushing.Status.ToString());
        Report[key + "Received"] = ReceivedOf(player);
        Report[key + "Left"] = Left(player);
    }

    /// <summary>
    /// The flush's request is in flight when the game erases: the erasure waits for its answer (the relay recorded the
    /// session: flushed, not also erased), then erases what is left (the session played meanwhile).
    /// </summary>
    private static void FlushThenErase()
    {
        QueuedOffline("flush-erase");
        var events = Events();
        var held = HoldRequests();
        var flushing = Tracker.Flush();
        Loop.Settle();
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(2000);
        Report["flushEraseHeld"] = (double)held.Count;
        Task erasing = null;
        Loop.Run(() => { erasing = Tracker.DeleteStoredData(); return Task.FromResult(0); }, "erase");
        Loop.Settle();
        Report["flushEraseWaits"] = erasing.Status.ToString();
        Answer(held);
        Loop.Settle();
        HttpExchange.Transport = Relay.Exchange;
        Report["flushEraseEvents"] = events;
        Report["flushEraseTasks"] = flushing.Status + " " + erasing.Status;
        Report["flushEraseReceived"] = ReceivedOf("flush-erase");
        Report["flushEraseLeft"] = Left("flush-erase");
    }

    /// <summary>
    /// The player switches recording off while the flush's request is in flight: that request's answer still counts (the
    /// relay recorded the session: flushed), nothing more is sent, and the session that ran is dropped as opted out.
    /// </summary>
    private static void OptOutDuringFlush()
    {
        QueuedOffline("optout-flush");
        var events = Events();
        var held = HoldRequests();
        Loop.Run(() => Tracker.Start(), "start");
        var flushing = Tracker.Flush();
        ProbeDevice.Pass(2000);
        Report["optOutFlushHeld"] = (double)held.Count;
        Task switching = null;
        Loop.Run(() => { switching = Tracker.SetOptOut(true); return Task.FromResult(0); }, "opt out");
        Loop.Settle();
        Answer(held);
        Loop.Run(Tracker.Flush, "flush");
        HttpExchange.Transport = Relay.Exchange;
        Report["optOutFlushEvents"] = events;
        Report["optOutFlushTasks"] = flushing.Status + " " + switching.Status;
        Report["optOutFlushReceived"] = ReceivedOf("optout-flush");
        Report["optOutFlushLeft"] = Left("optout-flush");
    }
}
