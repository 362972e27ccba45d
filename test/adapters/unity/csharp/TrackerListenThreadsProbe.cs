// Tracker.Listen on four threads at once, as two Inits on two threads (a game that calls Init after an await with
// ConfigureAwait(false) while another Init runs) do: the tracker must stay subscribed to the bridge's events exactly
// once, so a game's handler hears each event once. Each round starts the threads together (a Barrier), then pushes one
// session:start and counts what SessionStarted heard; a round heard twice (or not at all) is counted, then the
// subscription is put back to one by hand. Prints one JSON report. Compiled with HandNative.cs.
using System;
using System.Collections.Generic;
using System.Reflection;
using System.Threading;
using GameCampaignSdk;

internal static class TrackerListenThreadsProbe
{
    private const int Threads = 4;
    private const int Rounds = 3000;

    private static int Main()
    {
        FrameContext frames;
        var native = HandNative.StartPlayer(out frames);
        Tracker.Stop(); // the first call registers the bridge's callback with the native side
        frames.NextFrame();

        // Tracker's own handler, to take a doubled subscription back off (Bridge.EventReceived is internal, OnEvent private).
        var onEvent = (Action<string, Dictionary<string, object>>)Delegate.CreateDelegate(
            typeof(Action<string, Dictionary<string, object>>),
            typeof(Tracker).GetMethod("OnEvent", BindingFlags.NonPublic | BindingFlags.Static));
        var heard = 0;
        Tracker.SessionStarted += started => heard++;
        var start = new Dictionary<string, object> { { "event", "session:start" }, { "data", new Dictionary<string, object> { { "sessionId", "s-1" } } } };

        var once = 0;
        var twice = 0;
        var barrier = new Barrier(Threads);
        for (var round = 0; round < Rounds; round++)
        {
            var workers = new List<Thread>();
            for (var t = 0; t < Threads; t++)
            {
                var worker = new Thread(() =>
                {
                    barrier.SignalAndWait();
                    Tracker.Listen();
                });
                workers.Add(worker);
                worker.Start();
            }
            foreach (var worker in workers) worker.Join();
            heard = 0;
            native.Push(start);
            frames.NextFrame();
            if (heard == 1) once++;
            else
            {
                twice++;
                for (var i = 0; i < Threads + 1; i++) Bridge.EventReceived -= onEvent;
                Tracker.Listen();
            }
        }
        var report = new Dictionary<string, object>
        {
            { "rounds", (double)Rounds },
            { "heardOnce", (double)once },
            { "heardOtherwise", (double)twice },
        };
        Console.WriteLine(Json.Serialize(report));
        return ProbeExit.Now(0);
    }
}
