// Random runs of the managed tracker (compiled with test/contract/cs-runner, whose Scenario plays each step as a
// scenario file would): starts, stops, flushes, time passing, the device clock moved, the background, kills, quits,
// restarts as either of two players, the network and the relay's answers (503, 429 with Retry-After, 401, refusals,
// unreachable, results the spec does not define), the off switch, erasure, a small queue cap (overflow), and per mode
// a full disk (writes refused, deletes and renames still working, as a full disk does) or a power loss damaging every
// file. Each run ends with the disk writable, the relay accepting and every player started and flushed. What must
// hold, whatever happened: no session both recorded by the relay and reported dropped; every recorded session was
// heard ending; nothing but the players' choices (and files set aside as unreadable) left on the device; no call
// throws but a STORAGE_ERROR the game was told of; and without storage failures, every session heard ending with
// 1 s or more recorded or reported dropped. Fixed seeds: the same runs every time.
// args: mode (plain, full or truncate), first seed, seed count. Prints one JSON report.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using GameCampaignSdk;
using UnityEngine;

internal static class TrackerFuzzProbe
{
    private static int Main(string[] args)
    {
        var loop = new MainLoop();
        SynchronizationContext.SetSynchronizationContext(loop);
        var mode = args[0];
        int first = int.Parse(args[1]), count = int.Parse(args[2]);
        var problems = new List<object>();
        var steps = 0;
        for (var seed = first; seed < first + count; seed++)
        {
            var path = Path.Combine(Path.GetTempPath(), "tracker-fuzz-" + Guid.NewGuid().ToString("N") + ".json");
            File.WriteAllText(path, "{\"name\":\"random run\",\"steps\":[]}");
            try
            {
                var scenario = new Scenario(loop, path);
                string problem;
                try { problem = scenario.PlayRandom(seed, mode); }
                catch (Exception error) { problem = error.ToString(); }
                steps += scenario.Played.Count;
                if (problem != null) problems.Add("seed " + seed + ": " + problem + "\n" + string.Join("\n", scenario.Played));
            }
            finally { File.Delete(path); }
        }
        Console.WriteLine(Json.Serialize(new Dictionary<string, object> { { "runs", (double)count }, { "steps", (double)steps }, { "problems", problems } }));
        return ProbeExit.Now(0);
    }
}

internal sealed partial class Scenario
{
    /// <summary>The steps played, as JSON, for a report.</summary>
    internal readonly List<string> Played = new List<string>();

    /// <summary>A full disk refuses writes, not deletes (they free room): the file operation under way, per thread.</summary>
    [ThreadStatic] private static string operation;

    private void Play(string json)
    {
        Played.Add(json);
        try { Step(Json.Obj(Json.Parse(json))); }
        catch (GameCampaignException error) when (error.Code == "STORAGE_ERROR") { Played.Add("  (STORAGE_ERROR)"); }
        if (relay.Violations.Count > 0) throw new ScenarioFailure("the relay saw " + string.Join("; ", relay.Violations));
    }

    /// <summary>One random run (see the file's comment); null when everything held, else what did not.</summary>
    internal string PlayRandom(int seed, string mode)
    {
        var random = new Random(seed);
        Directory.CreateDirectory(device);
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", device);
        DeviceClock.UtcNow = () => Origin.AddMilliseconds(monoMs + wallOffsetMs);
        MonotonicClock.NowMs = () => monoMs;
        HttpExchange.Transport = relay.Exchange;
        var diskFull = false;
        TrackerFiles.Observer = (name, path) => operation = name;
        TrackerFiles.RefuseWrite = path => diskFull && operation != "delete";
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        NewProcess();
        var players = new[] { "p1", "p2" };
        var options = "{\"checkpointMs\":5000,\"backgroundTimeoutMs\":20000,\"flushIntervalMs\":10000,\"flushAt\":" + (1 + random.Next(5)) + ",\"maxQueue\":" + (3 + random.Next(50)) + "}";
        Func<string> init = () => "{\"init\":{\"player\":\"" + players[random.Next(2)] + "\",\"options\":" + options + "}}";
        var relays = new[] { "\"accept\"", "\"accept\"", "\"unreachable\"", "{\"status\":503}", "{\"status\":429,\"retryAfterSeconds\":3}", "{\"status\":401}", "{\"reject\":\"refused\"}", "{\"itemStatus\":\"PENDING\"}" };
        var storageFailed = false;
        try
        {
            Play(init());
            for (int i = 0, n = 10 + random.Next(50); i < n; i++)
            {
                var r = random.Next(100);
                string step;
                if (!running || r >= 88) step = init();
                else if (r < 15) step = "{\"start\":{\"campaignId\":\"c1\"}}";
                else if (r < 25) step = "{\"stop\":{}}";
                else if (r < 30) step = "{\"flush\":{}}";
                else if (r < 45) step = "{\"advance\":" + random.Next(30000) + "}";
                else if (r < 48) step = "{\"clock\":" + (random.Next(2) == 0 ? "-" : "") + random.Next(7200000) + "}";
                else if (r < 53) step = "{\"background\":{}}";
                else if (r < 58) step = "{\"foreground\":{}}";
                else if (r < 62) step = "{\"kill\":{}}";
                else if (r < 64) step = "{\"quit\":{}}";
                else if (r < 68) step = "{\"network\":\"" + (random.Next(2) == 0 ? "offline" : "online") + "\"}";
                else if (r < 73) step = "{\"relay\":" + relays[random.Next(relays.Length)] + "}";
                else if (r < 78 && mode == "full")
                {
                    diskFull = random.Next(2) == 0;
                    storageFailed |= diskFull;
                    Played.Add(diskFull ? "(disk full)" : "(disk has room)");
                    continue;
                }
                else if (r < 78 && mode == "truncate")
                {
                    storageFailed = true;
                    step = "{\"storage\":\"truncate\"}";
                }
                else if (r < 81) step = "{\"optOut\":" + (random.Next(3) == 0 ? "true" : "false") + "}";
                else if (r < 82) step = "{\"erase\":{}}";
                else step = "{\"advance\":" + random.Next(3000) + "}";
                Play(step);
            }
            diskFull = false;
            Play("{\"relay\":\"accept\"}");
            Play("{\"network\":\"online\"}");
            foreach (var player in players)
            {
                Play("{\"init\":{\"player\":\"" + player + "\",\"options\":" + options + "}}");
                Play("{\"optOut\":false}");
                Play("{\"stop\":{}}");
                Play("{\"flush\":{}}");
                Play("{\"advance\":400000}");
                Play("{\"flush\":{}}");
            }
            var received = new HashSet<string>();
            foreach (var session in relay.Received) received.Add(session.SessionId);
            var problems = new List<string>();
            foreach (var id in received)
            {
                if (droppedIds.ContainsKey(id)) problems.Add("recorded and dropped (" + droppedIds[id] + "): " + id);
                if (!endedSeconds.ContainsKey(id)) problems.Add("recorded, never heard ending: " + id);
            }
            if (!storageFailed)
                foreach (var pair in endedSeconds)
                    if (pair.Value >= 1 && !received.Contains(pair.Key) && !droppedIds.ContainsKey(pair.Key)) problems.Add("ended (" + pair.Value + " s), neither recorded nor dropped: " + pair.Key);
            var root = Path.Combine(device, "GameCampaign");
            foreach (var file in Directory.Exists(root) ? Directory.GetFiles(root, "*", SearchOption.AllDirectories) : new string[0])
            {
                var name = Path.GetFileName(file);
                if (name != "opt-out.json" && !name.EndsWith(TrackerFiles.UnreadableSuffix, StringComparison.Ordinal) && !name.EndsWith(".lock", StringComparison.Ordinal)) problems.Add("left on the device: " + file.Substring(device.Length));
            }
            return problems.Count == 0 ? null : string.Join("\n", problems);
        }
        finally
        {
            if (running) Kill();
            TrackerFiles.RefuseWrite = null;
            TrackerFiles.Observer = null;
            try { Directory.Delete(device, true); }
            catch (IOException) { }
        }
    }
}
