// Two players on one device without a restart: the game calls Init again with another UserId (a player logs out and a
// second logs in) while the first player's session runs, or while the first player's flush is in flight. A program of
// its own (ManagedLifecycleProbe is near mono full AOT's trampoline limit). args: device folder, story ("running" or
// "in-flight"). Prints one JSON report that test/adapters/unity/managed-lifecycle.test.ts checks.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using GameCampaignSdk;

internal static class ManagedPlayerSwitchProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();
    private static readonly List<object> Events = new List<object>();

    private static int Main(string[] args)
    {
        ProbeDevice.Open(args[0]);
        var story = args[1];
        Tracker.SessionEnded += e => Events.Add("ended " + e.Session.UserId + " " + e.Reason + " " + e.Session.DurationSeconds);
        Tracker.Dropped += e => Events.Add("dropped " + e.Reason);
        Tracker.Error += e => Events.Add("error " + e.Kind);
        Tracker.Flushed += e => Events.Add("flushed");
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("p1")), "init p1");
        Loop.Run(() => Tracker.Start(), "start p1");
        ProbeDevice.Pass(5000);
        var gate = new TaskCompletionSource<bool>();
        if (story == "in-flight")
        {
            // p1's flush is in flight (the relay has not answered) when the second player logs in; the relay records it and
            // answers only afterwards.
            Loop.Run(Tracker.Stop, "stop p1");
            HttpExchange.Transport = (method, url, headers, body) => gate.Task.ContinueWith(_ => ProbeDevice.Relay.Exchange(method, url, headers, body), TaskContinuationOptions.ExecuteSynchronously).Unwrap();
            Tracker.Flush();
            Loop.Settle();
        }
        // The second player logs in: Init again, no Stop, no Dispose.
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("p2")), "init p2");
        if (story == "in-flight")
        {
            HttpExchange.Transport = ProbeDevice.Relay.Exchange;
            gate.SetResult(true); // the relay records it now, on this thread (ExecuteSynchronously)
            Loop.Settle();
        }
        Loop.Run(() => Tracker.Start(), "start p2");
        ProbeDevice.Pass(3000);
        Loop.Run(Tracker.Stop, "stop p2");
        Loop.Run(Tracker.Flush, "flush p2");
        ProbeDevice.Pass(600000); // every timer (p1's retry too) has had its time
        Report["received"] = Received();
        Report["events"] = new List<object>(Events);
        Events.Clear();
        // The first player comes back.
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("p1")), "init p1 again");
        Loop.Run(Tracker.Flush, "flush p1 again");
        Report["afterReturn"] = Received();
        Report["eventsAfterReturn"] = new List<object>(Events);
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    private static object Received()
    {
        return Json.Write(ProbeDevice.Relay.Received, session => (object)(session.Player + " " + session.DurationSeconds));
    }
}
