// What outside review found the C# package doing differently from the JavaScript SDK (test/adapters/unity/
// managed-parity.test.ts checks the JSON report this prints): a bad Start argument is a VALIDATION_ERROR at once, not
// a session played and then refused by the relay; going to the background waits for the checkpoint's write, not for
// the background flush's reads of a long queue; an answer envelope the bridge cannot read still completes its Task.
// Compiled with ProbeDevice.cs. args: device folder.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;
using static ProbeDevice;

/// <summary>The JavaScript side of a WebGL player, answering each call with a scripted envelope.</summary>
internal sealed class EnvelopeNative : INative
{
    private MessageCallback callback;
    internal string Envelope;

    public void Register(MessageCallback callback) { this.callback = callback; }

    public void Call(int requestId, string method, string argsJson) { callback(Envelope.Replace("ID", requestId.ToString())); }
}

internal static class ManagedParityProbe
{
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        Open(args[0]);

        BadStartArguments();
        PauseWaitsForTheCheckpointOnly();
        UnreadableAnswers();
        TooShortDropped();
        MalformedRecordDropped();
        UnusualRelayAnswers(args[1]);
        EventStory();
        CrashStory();
        FlappingNetwork();
        BoostCurrentOn404();
        Evictions();
        TwoCopiesOfOneSession();
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }


    private static string Outcome(Func<Task> call)
    {
        var task = call();
        Loop.Settle();
        if (!task.IsCompleted) return "not completed";
        if (!task.IsFaulted) return "ok";
        var error = task.Exception.InnerException;
        var typed = error as GameCampaignException;
        return typed == null ? error.GetType().Name + " " + error.Message : typed.Code + " " + typed.Message;
    }


    /// <summary>
    /// A relay (or something in front of it) answering outside the spec: a 400 VALIDATION_ERROR without the spec's error
    /// body, a 404 with it, a captive portal's 200 page. For each, a 2 s session flushed into that answer, then into a
    /// relay that accepts: the events (dropped, error as the game receives them) and how many sessions arrived.
    /// </summary>
    private static void UnusualRelayAnswers(string args)
    {
        var cases = new List<string[]>();
        foreach (var line in File.ReadAllLines(args)) if (line.Length > 0) cases.Add(new[] { line.Substring(0, line.IndexOf(' ')), line.Substring(line.IndexOf(' ') + 1) });
        var outcomes = new List<object>();
        foreach (var scripted in cases)
        {
            UnityProcess.Start(Loop);
            var events = new List<object>();
            Tracker.Dropped += e =>
            {
                var details = new List<object>();
                if (e.Details != null) foreach (var detail in e.Details) details.Add(detail.ToJson());
                events.Add(Bridge.Args("dropped", e.Reason, "error", e.Error, "details", details));
            };
            Tracker.Error += e => events.Add(Bridge.Args("kind", e.Kind, "message", e.Message, "code", e.Code, "status", e.Status.HasValue ? (object)(double)e.Status.Value : null));
            var player = "unusual-" + outcomes.Count;
            Loop.Run(() => GameCampaign.Init(Options(player)), "init");
            Loop.Run(() => Tracker.Start(), "start");
            Pass(2000);
            Loop.Run(Tracker.Stop, "stop");
            HttpExchange.Transport = (method, url, headers, body) =>
            {
                // SID: the id of the batch's first session (an item result about it).
                var sessionId = Json.Str(Json.Obj(((List<object>)Json.Field(Json.Obj(Json.Parse(body)), "sessions"))[0]), "sessionId");
                object parsed = null;
                try { parsed = Json.Parse(scripted[1].Replace("SID", sessionId)); }
                catch (Exception) { } // not JSON: a proxy's page
                return Task.FromResult(new HttpAnswer { Status = long.Parse(scripted[0]), Body = parsed });
            };
            Loop.Run(Tracker.Flush, "flush");
            HttpExchange.Transport = Relay.Exchange;
            Loop.Run(Tracker.Flush, "flush");
            var arrived = 0;
            foreach (var session in Relay.Received) if (session.Player == player) arrived++;
            outcomes.Add(Bridge.Args("status", scripted[0], "events", events, "arrived", (double)arrived));
        }
        Report["unusualRelayAnswers"] = outcomes;
    }

    /// <summary>
    /// A story told by every tracker event, as the bridge hands each to Tracker (its name and JSON): a session with a
    /// campaign, creator and metadata, 5 s played, 70 s in the background (time-out), back (its continuation), 3 s,
    /// stopped, flushed; then a session of 2 s replaced by Start, and the player erasing their data.
    /// </summary>
    private static void EventStory()
    {
        UnityProcess.Start(Loop);
        var events = new List<object>();
        Action<string, Dictionary<string, object>> listen = (name, message) => events.Add(Bridge.Args("name", name, "data", Json.Field(message, "data")));
        Bridge.EventReceived += listen;
        Report["eventStoryStartMs"] = MonotonicMs; // the device clock: the origin plus this (earlier probes passed time)
        Loop.Run(() => GameCampaign.Init(Options("story")), "init");
        Loop.Run(() => Tracker.Start("c1", "ABCDE", new Dictionary<string, object> { { "level", 3.0 }, { "mode", "ranked" }, { "none", null }, { "list", new List<object> { 1.0, null, "x", false } }, { "nested", new Dictionary<string, object> { { "tiny", 1.5e-7 }, { "big", 1e21 }, { "ü", "ğ\u2028" } } } }), "start");
        Pass(5000);
        ManagedLifecycle.Instance.OnApplicationPause(true);
        Pass(70000);
        ManagedLifecycle.Instance.OnApplicationPause(false);
        Pass(3000);
        Loop.Run(Tracker.Stop, "stop");
        Loop.Run(Tracker.Flush, "flush");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(2000);
        Loop.Run(() => Tracker.Start("c2"), "start");
        Pass(1500);
        Loop.Run(Tracker.DeleteStoredData, "erase");
        Bridge.EventReceived -= listen;
        Report["eventStory"] = events;
    }

    /// <summary>
    /// A second story, across processes, with a queue of one (<c>MaxQueue</c>) and a relay answering 503: a 2 s session
    /// queued and kept, a second one stopped (the first evicted: overflow), then the process killed 20 s into a third
    /// (checkpointed at 15 s); the next start-up recovers it and, the relay accepting again, a flush sends what is queued.
    /// </summary>
    private static void Evictions()
    {
        Report["evictionOfASentFile"] = Eviction("evict-sent", queued => File.Delete(queued), null);
        Report["evictionDeleteRefused"] = Eviction("evict-refused", queued => { }, path => { throw new UnauthorizedAccessException("read-only: " + Path.GetFileName(path)); });
        Report["evictionWhileRead"] = EvictionWhileRead();
    }

    /// <summary>
    /// Two stored copies of one session (two copies of the game on the player's folder both queued it, one recovering
    /// the other's) sent in one batch: the relay answers SUCCESS for the first and SKIPPED for the second. What the
    /// flush tells (the results of each flushed event), and how many files are left queued.
    /// </summary>
    private static void TwoCopiesOfOneSession()
    {
        UnityProcess.Start(Loop);
        Relay.Mode = "status";
        Relay.Status = 503;
        var options = Options("twice");
        Loop.Run(() => GameCampaign.Init(options), "init");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(2000);
        Loop.Run(Tracker.Stop, "stop");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "twice");
        var queued = TrackerFiles.JsonFiles(folder.QueueDir);
        UnityProcess.Start(Loop);
        File.Copy(Path.Combine(folder.QueueDir, queued[0]), Path.Combine(folder.QueueDir, "000000000001-" + queued[0].Substring(13)));
        Relay.Mode = "accept";
        var flushed = new List<object>();
        Tracker.Flushed += e => flushed.Add((double)e.Results.Count);
        Loop.Run(() => GameCampaign.Init(options), "init");
        Loop.Run(Tracker.Flush, "flush");
        Report["twoCopiesFlushed"] = flushed;
        Report["twoCopiesLeftQueued"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
    }

    /// <summary>
    /// A queue capped at 1 holding a; b is queued and, before its write ends, a flush reads a: b's write ends first, so a
    /// is evicted (dropped) while its read is under way. What is heard, then which sessions the read hands the flush.
    /// managed-parity.test.ts plays the same on core/tracker/queue.ts.
    /// </summary>
    private static List<object> EvictionWhileRead()
    {
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "evict-read");
        var heard = new List<object>();
        var queue = new SessionQueue(folder, 1, (id, reason, session) => heard.Add("dropped " + id + " " + reason), error => heard.Add("storage error"), id => { }, path => heard.Add("set aside"));
        Loop.Run(() => queue.Sync(0), "start-up");
        Loop.Run(() => queue.Enqueue(new Dictionary<string, object> { { "sessionId", "a" } }, 0), "enqueue a");
        var oldest = queue.Oldest(10, new HashSet<string>());
        var enqueued = queue.Enqueue(new Dictionary<string, object> { { "sessionId", "b" } }, 0);
        var reading = queue.Read(oldest, path => heard.Add("set aside"));
        Loop.Run(() => Task.WhenAll(enqueued, reading), "b queued while a is read");
        foreach (var item in reading.Result) heard.Add("read " + Json.Str(item.Session, "sessionId"));
        return heard;
    }

    /// <summary>
    /// A queue capped at 1 holding a; <paramref name="meanwhile"/> happens to a's file; b is queued (a evicted) with deletes
    /// done by <paramref name="delete"/> (null: the real one). Says the drops and storage errors heard, then what the next
    /// start-up finds queued. managed-parity.test.ts plays the same on core/tracker/queue.ts.
    /// </summary>
    private static Dictionary<string, object> Eviction(string player, Action<string> meanwhile, Action<string> delete)
    {
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, player);
        var heard = new List<object>();
        var queue = new SessionQueue(folder, 1, (id, reason, session) => heard.Add("dropped " + id + " " + reason + (session == null ? " without the session" : "")), error => heard.Add("storage error"), id => { }, path => heard.Add("set aside"));
        Loop.Run(() => queue.Sync(0), "start-up");
        Loop.Run(() => queue.Enqueue(new Dictionary<string, object> { { "sessionId", "a" } }, 0), "enqueue a");
        meanwhile(Path.Combine(folder.QueueDir, "000000000000-a.json"));
        var realDelete = TrackerFiles.DeleteFile;
        var realRename = TrackerFiles.RenameFile;
        if (delete != null)
        {
            TrackerFiles.DeleteFile = delete;
            TrackerFiles.RenameFile = (path, target) => delete(path); // a folder refusing deletes refuses renames too (the eviction renames first: DroppedFiles)
        }
        try { Loop.Run(() => queue.Enqueue(new Dictionary<string, object> { { "sessionId", "b" } }, 0), "enqueue b"); }
        finally
        {
            TrackerFiles.DeleteFile = realDelete;
            TrackerFiles.RenameFile = realRename;
        }
        var next = new SessionQueue(folder, 10, (id, reason, session) => { }, error => { }, id => { }, path => { });
        Loop.Run(() => next.Sync(0), "next start-up");
        var queued = new List<object>();
        foreach (var key in next.Oldest(10, new HashSet<string>())) queued.Add(key.Substring(13, key.Length - 13 - ".json".Length));
        return new Dictionary<string, object> { { "heard", heard }, { "queuedAtNextStart", queued } };
    }

    private static void CrashStory()
    {
        UnityProcess.Start(Loop);
        var events = new List<object>();
        var heard = true;
        Action<string, Dictionary<string, object>> listen = (name, message) => { if (heard) events.Add(Bridge.Args("name", name, "data", Json.Field(message, "data"))); };
        Bridge.EventReceived += listen;
        Report["crashStoryStartMs"] = MonotonicMs;
        var options = Options("crash");
        options.MaxQueue = 1;
        Loop.Run(() => GameCampaign.Init(options), "init");
        HttpExchange.Transport = (method, url, headers, body) => Task.FromResult(new HttpAnswer { Status = 503, Body = Bridge.Args("code", "SERVICE_UNAVAILABLE", "message", "down") });
        Loop.Run(() => Tracker.Start("c1"), "start");
        Pass(2000);
        Loop.Run(Tracker.Stop, "stop");
        Loop.Run(Tracker.Flush, "flush");
        Loop.Run(() => Tracker.Start("c2"), "start");
        Pass(2000);
        Loop.Run(Tracker.Stop, "stop");
        Loop.Run(() => Tracker.Start("c3"), "start");
        Pass(20000);
        heard = false; // the OS kills the process: nothing more of it is heard
        UnityProcess.Start(Loop);
        heard = true;
        HttpExchange.Transport = Relay.Exchange;
        Loop.Run(() => GameCampaign.Init(options), "init");
        Loop.Run(Tracker.Flush, "flush");
        Bridge.EventReceived -= listen; // the stories after this one are not part of it
        Report["crashStory"] = events;
    }

    /// <summary>A session of 0.5 s stopped: the dropped event (too-short) as the game receives it, its error and details.</summary>
    private static void TooShortDropped()
    {
        UnityProcess.Start(Loop);
        var dropped = new List<object>();
        Tracker.Dropped += e =>
        {
            var details = new List<object>();
            if (e.Details != null) foreach (var detail in e.Details) details.Add(detail.ToJson());
            dropped.Add(Bridge.Args("reason", e.Reason, "error", e.Error, "details", details));
        };
        Loop.Run(() => GameCampaign.Init(Options("short")), "init");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(500);
        Loop.Run(Tracker.Stop, "stop");
        Report["tooShortDropped"] = dropped;
    }

    /// <summary>
    /// A session killed after 20 s whose running record then lacks <c>playedMs</c> and holds a negative <c>spanMs</c> (it still
    /// parses): the next start-up's dropped event (invalid) as the game receives it, its error and details (the JavaScript
    /// tracker's: core/tracker/tracker.ts <c>finish</c>, <c>checkPlaytimeItem</c>).
    /// </summary>
    private static void MalformedRecordDropped()
    {
        UnityProcess.Start(Loop);
        Loop.Run(() => GameCampaign.Init(Options("malformed")), "init");
        Loop.Run(() => Tracker.Start("c1"), "start");
        Pass(20000);
        UnityProcess.Start(Loop); // the OS kills the process
        foreach (var path in Directory.GetFiles(Environment.GetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH"), "*.json", SearchOption.AllDirectories))
        {
            var record = Json.Obj(Json.Parse(File.ReadAllText(path)));
            if (Path.GetFileName(Path.GetDirectoryName(path)) != "running" || Json.Str(record, "userId") != "malformed") continue;
            record.Remove("playedMs");
            record["spanMs"] = -5000.0;
            File.WriteAllText(path, Json.Serialize(record));
        }
        var dropped = new List<object>();
        Tracker.Dropped += e =>
        {
            var details = new List<object>();
            if (e.Details != null) foreach (var detail in e.Details) details.Add(detail.ToJson());
            dropped.Add(Bridge.Args("reason", e.Reason, "error", e.Error, "details", details));
        };
        var errors = new List<object>();
        Tracker.Error += e => errors.Add(e.Kind);
        Loop.Run(() => GameCampaign.Init(Options("malformed")), "init");
        Loop.Run(Tracker.Flush, "flush");
        Report["malformedDropped"] = dropped;
        Report["malformedErrors"] = errors;
    }

    /// <summary>core/tracker/options.ts: a bad creatorKey or an empty campaignId throws at Start (and as Init's defaults), and the running session goes on.</summary>
    private static void BadStartArguments()
    {
        UnityProcess.Start(Loop);
        var ended = new List<object>();
        Tracker.SessionEnded += e => ended.Add(e.Reason + " " + e.Session.DurationSeconds);
        Loop.Run(() => GameCampaign.Init(Options("validated")), "init");
        Loop.Run(() => Tracker.Start("cmp_spring"), "start");
        Pass(3000);
        Report["badCreatorKey"] = Outcome(() => Tracker.Start("cmp_spring", "bad key"));
        Report["emptyCampaignId"] = Outcome(() => Tracker.Start(""));
        Pass(2000);
        Loop.Run(Tracker.Stop, "stop");
        Report["endedAfterBadStarts"] = ended;
        var defaults = Options("validated");
        defaults.CreatorKey = "lower";
        Report["badDefaultCreatorKey"] = Outcome(() => GameCampaign.Init(defaults));
    }

    /// <summary>
    /// 5 queued sessions the relay keeps refusing (503), a session playing, the game goes to the background: the
    /// checkpoint is on disk when OnApplicationPause returns, and the background flush's read of the queue is not
    /// waited for (a long queue is a thousand files). The read is held until the pause returned; a read still held
    /// after 10 s means the pause waited for it.
    /// </summary>
    private static void PauseWaitsForTheCheckpointOnly()
    {
        UnityProcess.Start(Loop);
        ManagedTracker.BackgroundWaitMs = 60000;
        Relay.Mode = "status";
        Relay.Status = 503;
        Loop.Run(() => GameCampaign.Init(Options("paused")), "init");
        for (var i = 0; i < 5; i++)
        {
            Loop.Run(() => Tracker.Start(), "start");
            Pass(2000);
            Loop.Run(Tracker.Stop, "stop");
        }
        Loop.Run(() => Tracker.Start(), "start");
        Pass(4000);
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "paused");
        var release = new ManualResetEvent(false);
        var readHeldTooLong = false;
        TrackerFiles.Observer = (operation, path) =>
        {
            if (operation != "read" || !path.StartsWith(folder.QueueDir, StringComparison.Ordinal) || release.WaitOne(10000)) return;
            readHeldTooLong = true;
            release.Set(); // one is enough to know
        };
        ManagedLifecycle.Instance.OnApplicationFocus(false);
        ManagedLifecycle.Instance.OnApplicationPause(true);
        var running = TrackerFiles.JsonFiles(folder.RunningDir);
        Report["playedMsOnDiskAtPause"] = running.Count == 1 ? Json.Num(Json.Obj(Json.Parse(File.ReadAllText(Path.Combine(folder.RunningDir, running[0])))), "playedMs") : null;
        release.Set();
        Loop.Settle();
        TrackerFiles.Observer = null;
        ManagedTracker.BackgroundWaitMs = 1000;
        Relay.Mode = "accept";
        Report["pauseWaitedForQueueRead"] = readHeldTooLong;
    }

    /// <summary>
    /// Boost.Current answered 404: none (null) only with the spec's error body, as core/boost/boost.ts; a proxy's page,
    /// an empty body or other JSON, a `{ message }` without a code included, is NOT_FOUND "HTTP 404" (before: null, the
    /// player shown no boost while they had one).
    /// </summary>
    private static void BoostCurrentOn404()
    {
        UnityProcess.Start(Loop);
        Loop.Run(() => GameCampaign.Init(Options("boost-404")), "init");
        var outcomes = new List<object>();
        // Then a framework's or an AWS HTTP API's { message } with no code (before: null, as the TypeScript SDK did).
        foreach (var body in new object[] { null, Bridge.Args("error", "no route"), Bridge.Args("status", 404.0, "error", "Not Found", "code", "NOT_FOUND", "message", "User boost-404 has no boost"), Bridge.Args("message", "Not Found"), Bridge.Args("message", "Route GET:/v1/client/sponsors/user/boost-404 not found", "error", "Not Found", "statusCode", 404.0) })
        {
            HttpExchange.Transport = (method, url, headers, json) => Task.FromResult(new HttpAnswer { Status = 404, Body = body });
            outcomes.Add(Outcome(Boost.Current));
        }
        HttpExchange.Transport = Relay.Exchange;
        Report["boostCurrentOn404"] = outcomes;
    }

    /// <summary>Answers the bridge cannot read as an error still complete their Task (failed) and clear its entry.</summary>
    private static void UnreadableAnswers()
    {
        var native = new EnvelopeNative();
        Bridge.Native = native;
        var outcomes = new List<object>();
        foreach (var envelope in new[]
        {
            "{\"id\":ID,\"ok\":false,\"error\":{\"code\":\"INTERNAL_ERROR\",\"message\":\"huge status\",\"status\":1e300}}",
            "{\"id\":ID,\"ok\":false,\"error\":{\"code\":\"BAD_REQUEST\",\"message\":\"huge days\",\"daysRemaining\":1e20}}",
            "{\"id\":ID,\"ok\":false,\"error\":{\"code\":\"INTERNAL_ERROR\"}}",
        })
        {
            native.Envelope = envelope;
            var call = Bridge.Call("campaigns.get", null);
            outcomes.Add(call.IsFaulted ? ((GameCampaignException)call.Exception.InnerException).Code + ": " + call.Exception.InnerException.Message : call.IsCompleted ? "completed" : "pending");
        }
        Report["unreadableAnswers"] = outcomes;
        Report["pendingAfter"] = (double)Bridge.PendingCount;
    }

    /// <summary>
    /// A connection that flaps while the relay cannot be reached: a 2 s session, 9 flushes failing (the backoff at its
    /// 5 min ceiling), then the network lost and back 10 times with no time passing: the requests each return made (the
    /// first return skips the backoff, the others wait it out); then offline past the backoff and back where the relay
    /// answers: the requests that return made at once, and the sessions that arrived.
    /// </summary>
    private static void FlappingNetwork()
    {
        UnityProcess.Start(Loop);
        Loop.Run(() => GameCampaign.Init(Options("flapping")), "init");
        Loop.Run(() => Tracker.Start(), "start");
        Pass(2000);
        Loop.Run(Tracker.Stop, "stop");
        var requests = 0;
        HttpExchange.Transport = (method, url, headers, body) =>
        {
            requests++;
            return Task.FromResult(new HttpAnswer { NetworkError = "Cannot resolve destination host" });
        };
        for (var i = 0; i < 9; i++) Loop.Run(Tracker.Flush, "flush");
        var before = requests;
        for (var flip = 0; flip < 10; flip++)
        {
            Application.Reachability = NetworkReachability.NotReachable;
            Pass(0);
            Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
            Pass(0);
        }
        Report["flappingReturnsSent"] = (double)(requests - before);
        Application.Reachability = NetworkReachability.NotReachable;
        Pass(301000);
        before = requests;
        HttpExchange.Transport = (method, url, headers, body) =>
        {
            requests++;
            return Relay.Exchange(method, url, headers, body);
        };
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        Pass(0);
        Report["returnAfterOutageSent"] = (double)(requests - before);
        var arrived = 0;
        foreach (var session in Relay.Received) if (session.Player == "flapping") arrived++;
        Report["flappingArrived"] = (double)arrived;
        HttpExchange.Transport = Relay.Exchange;
    }
}

