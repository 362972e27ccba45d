// The managed tracker at 10,000 queued sessions (compiled with test/contract/cs-runner's MainLoop and FakeRelay):
// 9,999 sessions on the device, then Init, a session stopped (the 10,000th), 300 more stopped at the full queue (each
// evicting the oldest), and a flush of all of them. Prints one
// JSON report: the file operations each step did and on which thread (structure, asserted by
// test/adapters/unity/queue-scale.test.ts), and how long main-thread work took (timings, printed by
// bench/unity-queue.ts, never asserted).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Threading;
using GameCampaignSdk;
using UnityEngine;

internal static class QueueScaleProbe
{
    private const int Prefilled = 9999;
    /// <summary>Sessions stopped once the queue is full (each evicts the oldest).</summary>
    private const int OverflowStops = 300;

    private static int Main(string[] args)
    {
        var device = args[0];
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", device);
        var loop = new MainLoop();
        SynchronizationContext.SetSynchronizationContext(loop);
        var mainThread = Thread.CurrentThread.ManagedThreadId;
        double monotonicMs = 0;
        var origin = new DateTime(2026, 6, 1, 12, 0, 0, DateTimeKind.Utc);
        DeviceClock.UtcNow = () => origin.AddMilliseconds(monotonicMs);
        MonotonicClock.NowMs = () => monotonicMs;
        var relay = new FakeRelay();
        HttpExchange.Transport = relay.Exchange;
        Application.Reachability = NetworkReachability.NotReachable;
        Bridge.Native = new ManagedNative();

        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "p1");
        Directory.CreateDirectory(folder.QueueDir);
        for (var i = 0; i < Prefilled; i++)
        {
            var sessionId = Guid.NewGuid().ToString();
            var session = Bridge.Args("sessionId", sessionId, "userId", "p1", "durationSeconds", 5.0, "startedAt", "2026-06-01T11:00:00.000Z", "endedAt", "2026-06-01T11:00:05.000Z");
            File.WriteAllText(Path.Combine(folder.QueueDir, i.ToString("D12") + "-" + sessionId + ".json"), Json.Serialize(session));
        }

        var operations = new List<string[]>();
        var gate = new object();
        TrackerFiles.Observer = (operation, path) => { lock (gate) operations.Add(new[] { operation, Thread.CurrentThread.ManagedThreadId == mainThread ? "main" : "worker" }); };
        var report = new Dictionary<string, object>();
        Func<string, Action, Dictionary<string, object>> step = (name, body) =>
        {
            lock (gate) operations.Clear();
            loop.WorstMs = 0;
            var total = Stopwatch.StartNew();
            body();
            var counts = new Dictionary<string, object> { { "totalMs", total.Elapsed.TotalMilliseconds }, { "worstMainThreadMs", loop.WorstMs } };
            lock (gate)
            {
                foreach (var operation in operations)
                {
                    var key = operation[0] + "s";
                    counts[key] = (counts.ContainsKey(key) ? (double)counts[key] : 0) + 1;
                    if (operation[1] == "main") counts["onMainThread"] = (counts.ContainsKey("onMainThread") ? (double)counts["onMainThread"] : 0) + 1;
                }
            }
            report[name] = counts;
            return counts;
        };

        step("init", () => loop.Run(() => GameCampaign.Init(new GameCampaignOptions { ClientKey = "ck_g1_sandbox:secret", UserId = "p1", RelayUrl = "https://g1.example/sandbox/campaign", IsTest = true, RelayHeaders = new Dictionary<string, string> { { "authorization", "Bearer p1" } } }), "init"));
        step("start", () => loop.Run(() => Tracker.Start(), "start"));
        monotonicMs += 5000;
        var stopWatch = new Stopwatch();
        step("stop", () => loop.Run(() =>
        {
            stopWatch.Start();
            var stopping = Tracker.Stop();
            stopWatch.Stop();
            return stopping;
        }, "stop"))["callMs"] = stopWatch.Elapsed.TotalMilliseconds;
        // A full queue (MaxQueue 10,000) goes on filling: each Stop evicts the oldest. The names looked at to find it
        // stay a handful each time, however many were evicted before (structure, not time).
        var overflowDropped = 0;
        Tracker.Dropped += dropped => { if (dropped.DropReason == DropReason.Overflow) overflowDropped++; };
        double worstVisited = 0;
        step("overflow", () =>
        {
            for (var i = 0; i < OverflowStops; i++)
            {
                loop.Run(() => Tracker.Start(), "start");
                monotonicMs += 2000;
                var before = SessionQueue.NamesVisited;
                loop.Run(Tracker.Stop, "stop");
                worstVisited = Math.Max(worstVisited, SessionQueue.NamesVisited - before);
            }
        });
        report["overflowDropped"] = (double)overflowDropped;
        report["overflowWorstNamesVisited"] = worstVisited;
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        step("flush", () => loop.Run(Tracker.Flush, "flush"));
        report["sends"] = (double)relay.Sends;
        report["received"] = (double)relay.Received.Count;
        report["left"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
        TrackerFiles.Observer = null;
        Console.WriteLine(Json.Serialize(report));
        return ProbeExit.Now(0);
    }
}
