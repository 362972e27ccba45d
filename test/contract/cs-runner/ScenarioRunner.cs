// The C# runner of the tracker contract (test/contract/FORMAT.md): plays each scenario file against the Unity
// package's managed tracker through its public API (GameCampaign.Init, Tracker.Start/Stop/Flush/SetOptOut/
// DeleteStoredData and its events) and Unity's lifecycle messages (OnApplicationPause/OnApplicationFocus/Update on
// the package's MonoBehaviour, Application.quitting, Application.internetReachability). The runner owns the wall
// clock (DeviceClock), the monotonic clock (MonotonicClock), the main thread (MainLoop), the relays (FakeRelay) and
// the disk (a temporary persistentDataPath; TrackerFiles.RefuseWrite for a full disk).
// Usage: runner.exe scenario.json... ; prints one JSON line per file: {"file","ok","error"?,"wire"?,"recovery"?} (wire: the
// sessions the relays recorded, in order, as their requests carried them without sessionId; recovery: for each, the start-up
// that recovered it, 0 if none did).
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

internal static class ScenarioRunner
{
    private static int Main(string[] files)
    {
        // UTF-8 whatever the locale says (mono writes '?' for what its console encoding cannot hold): the report holds the sessions' text.
        Console.OutputEncoding = new UTF8Encoding(false);
        Application.MobilePlatform = Scenario.Device == "ios" || Scenario.Device == "android";
        var loop = new MainLoop();
        SynchronizationContext.SetSynchronizationContext(loop);
        var failed = 0;
        foreach (var file in files)
        {
            var report = new Dictionary<string, object> { { "file", Path.GetFileName(file) } };
            try
            {
                var scenario = new Scenario(loop, file);
                scenario.Play();
                report["ok"] = true;
                report["wire"] = scenario.Wire();
                report["recovery"] = scenario.Recoveries();
            }
            catch (Exception error)
            {
                failed++;
                report["ok"] = false;
                report["error"] = error.Message + (error is ScenarioFailure ? "" : "\n" + error.StackTrace);
            }
            Console.WriteLine(Json.Serialize(report));
        }
        return ProbeExit.Now(failed == 0 ? 0 : 1);
    }
}

/// <summary>A check that did not hold, or a step that could not be played.</summary>
internal sealed class ScenarioFailure : Exception
{
    internal ScenarioFailure(string message) : base(message) { }
}

/// <summary>One scenario file played on one device (a temporary folder).</summary>
internal sealed partial class Scenario
{
    private static readonly DateTime Origin = new DateTime(2026, 6, 1, 12, 0, 0, DateTimeKind.Utc);

    private readonly MainLoop loop;
    private readonly Dictionary<string, object> file;
    private readonly string device;
    private readonly FakeRelay relay = new FakeRelay();
    private readonly List<string> dropped = new List<string>();
    /// <summary>For each of <see cref="dropped"/>: the start-up that recovered its session, 0 if none did.</summary>
    private readonly List<int> droppedRecovery = new List<int>();
    private readonly List<string> errors = new List<string>();
    private double monoMs;
    private double wallOffsetMs;
    private bool running;
    /// <summary>Events of a killed process are not heard (its code no longer runs).</summary>
    private int process;

    internal Scenario(MainLoop loop, string path)
    {
        this.loop = loop;
        file = Json.Obj(Json.Parse(File.ReadAllText(path, Encoding.UTF8)));
        if (file == null) throw new ScenarioFailure("not a JSON object");
        device = Path.Combine(Path.GetTempPath(), "cs-contract-" + Guid.NewGuid().ToString("N"));
    }

    internal void Play()
    {
        Directory.CreateDirectory(device);
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", device);
        DeviceClock.UtcNow = () => Origin.AddMilliseconds(monoMs + wallOffsetMs);
        MonotonicClock.NowMs = () => monoMs;
        HttpExchange.Transport = relay.Exchange;
        TrackerFiles.RefuseWrite = null;
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        NewProcess();
        try
        {
            var steps = Json.Field(file, "steps") as List<object>;
            if (steps == null) throw new ScenarioFailure("no steps");
            for (var i = 0; i < steps.Count; i++)
            {
                try { Step(Json.Obj(steps[i])); }
                catch (Exception error)
                {
                    var message = "step " + (i + 1) + " " + Json.Serialize(steps[i]) + ": " + error.Message;
                    if (error is ScenarioFailure) throw new ScenarioFailure(Json.Str(file, "name") + "\n" + message);
                    throw new Exception(Json.Str(file, "name") + "\n" + message, error);
                }
                if (relay.Violations.Count > 0) throw new ScenarioFailure("step " + (i + 1) + ": the relay saw " + string.Join("; ", relay.Violations));
            }
        }
        finally
        {
            if (running) Kill();
            TrackerFiles.RefuseWrite = null;
            try { Directory.Delete(device, true); }
            catch (IOException) { }
        }
    }

    private void Step(Dictionary<string, object> step)
    {
        if (step == null || step.Count != 1) throw new ScenarioFailure("a step has exactly one key");
        foreach (var pair in step) Step(pair.Key, pair.Value);
    }

    private void Step(string name, object value)
    {
        var args = Json.Obj(value) ?? new Dictionary<string, object>();
        switch (name)
        {
            case "init": Init(args); return;
            case "start":
                Need(name);
                GameCall();
                Func<Task> start = () => Tracker.Start(Json.Str(args, "campaignId"), Json.Str(args, "creatorKey"), Json.Obj(Json.Field(args, "metadata")));
                if (Json.Bool(args, "refused") == true) Refused(start, name);
                else loop.Run(start, name);
                return;
            case "stop": Need(name); GameCall(); loop.Run(Tracker.Stop, name); return;
            case "flush": Need(name); GameCall(); loop.Run(Tracker.Flush, name); return;
            case "advance": Advance((double)value); return;
            case "clock": wallOffsetMs += (double)value; return;
            case "optOutAndLeave":
                Need(name);
                GameCall();
                Tracker.SetOptOut((bool)value); // not awaited: the game leaves in the same frame, no main-thread turn between
                goto case "background";
            case "stopAndLeave":
                Need(name);
                GameCall();
                Tracker.Stop(); // not awaited: the game leaves in the same frame, no main-thread turn between
                goto case "background";
            case "flushAndLeave":
                Need(name);
                GameCall();
                Tracker.Flush(); // not awaited: the game leaves in the same frame, no main-thread turn between
                goto case "background";
            case "background":
                Need(name);
                // Focus lost, then paused; on Android, Home pressed with the game's on-screen keyboard open sends the pause
                // instead of the focus message (Unity's ScriptReference, MonoBehaviour.OnApplicationFocus). A desktop player
                // with Run In Background on is not paused: focus goes, its frames go on.
                if (Device != "android") Lifecycle.OnApplicationFocus(false);
                if (Device == RunsInBackground)
                {
                    loop.Settle();
                    return;
                }
                Lifecycle.OnApplicationPause(true);
                Paused(true);
                return;
            case "foreground":
                Need(name);
                // Desktop and iOS: the pause ends, then focus returns; Android may send focus first.
                if (Device == "android") Lifecycle.OnApplicationFocus(true);
                if (Device != RunsInBackground) Lifecycle.OnApplicationPause(false);
                if (Device != "android") Lifecycle.OnApplicationFocus(true);
                Paused(false);
                return;
            case "unity":
                Need(name);
                // Unity's messages in the scenario's order, to the package's MonoBehaviour (FORMAT.md, "unity").
                foreach (var item in value as List<object> ?? new List<object>())
                {
                    var message = Json.Obj(item);
                    if (message != null && Json.Bool(message, "focus").HasValue) Lifecycle.OnApplicationFocus(Json.Bool(message, "focus").Value);
                    else if (message != null && Json.Bool(message, "pause").HasValue)
                    {
                        Lifecycle.OnApplicationPause(Json.Bool(message, "pause").Value);
                        paused = Json.Bool(message, "pause").Value;
                    }
                    else throw new ScenarioFailure("unity needs {\"focus\": bool} or {\"pause\": bool} messages");
                }
                Paused(paused);
                return;
            case "kill": Need(name); Kill(); return;
            case "quit": Need(name); GameCall(); Quit(); return;
            case "network": Network((string)value); return;
            case "relay": Relay(value); return;
            case "storage":
                if (value is string) Storage((string)value);
                else EditRunning(Json.Obj(value));
                return;
            case "optOut": Need(name); GameCall(); loop.Run(() => Tracker.SetOptOut((bool)value), name); return;
            case "erase": Need(name); GameCall(); loop.Run(Tracker.DeleteStoredData, name); return;
            case "expect": Expect(args); return;
        }
        throw new ScenarioFailure("unknown step " + name);
    }

    /// <summary>The sessions the relays recorded, in the order first recorded, as their requests carried them (no sessionId).</summary>
    internal List<object> Wire()
    {
        return Json.Write(relay.Received, session => (object)session.Wire);
    }

    /// <summary>For each session of <see cref="Wire"/>: the start-up that recovered it, 0 if none did.</summary>
    internal List<object> Recoveries()
    {
        return Json.Write(relay.Received, session => (object)(double)RecoveryOf(session));
    }

    /// <summary>A call with a bad argument: it must fail with VALIDATION_ERROR (FORMAT.md, <c>"refused": true</c>).</summary>
    private void Refused(Func<Task> body, string what)
    {
        try { loop.Run(body, what); }
        catch (GameCampaignException error) when (error.Code == "VALIDATION_ERROR") { return; }
        throw new ScenarioFailure(what + " was not refused with VALIDATION_ERROR");
    }

    private static ManagedLifecycle Lifecycle { get { return ManagedLifecycle.Instance; } }

    /// <summary>
    /// The player the scenarios are played on (GAME_CAMPAIGN_CONTRACT_DEVICE): "desktop" (the default: the Editor, a desktop
    /// player, where focus counts; Run In Background off, Unity's default, so it pauses as it loses focus),
    /// <see cref="RunsInBackground"/>, "ios" and "android" (Application.isMobilePlatform: only the pause counts); "android"
    /// plays Home pressed with the game's keyboard open (a pause without a focus message) and a return whose focus comes
    /// before the pause ends.
    /// </summary>
    internal static readonly string Device = Environment.GetEnvironmentVariable("GAME_CAMPAIGN_CONTRACT_DEVICE") ?? "desktop";

    /// <summary>
    /// A desktop player (or the Editor) with Run In Background on: leaving is focus lost, no pause, and its frames go on in
    /// the background (timers fire, the network's return is seen), as the TypeScript tracker's timers run there.
    /// </summary>
    internal const string RunsInBackground = "desktop-run-in-background";

    private void Need(string step)
    {
        if (!running) throw new ScenarioFailure(step + " needs a running process (init first)");
    }

    /// <summary>What a new process starts with: no SDK, no timers, no handlers (the statics Unity resets at SubsystemRegistration).</summary>
    private void NewProcess()
    {
        UnityProcess.Start(loop);
        var me = ++process;
        Tracker.Dropped += e =>
        {
            if (process != me) return;
            dropped.Add(TrackerNames.JavaScriptName(TrackerNames.ReasonOf(e)) ?? "unknown:" + e.Reason);
            int recovery;
            droppedRecovery.Add(recoveredIn.TryGetValue(e.SessionId, out recovery) ? recovery : 0);
        };
        Tracker.Error += e => { if (process == me) errors.Add(TrackerNames.JavaScriptName(TrackerNames.KindOf(e)) ?? "unknown:" + e.Kind); };
        HearSessions(me);
    }

    private void Init(Dictionary<string, object> args)
    {
        if (running) Kill();
        var player = Json.Str(args, "player") ?? "p1";
        var game = Json.Str(args, "game") ?? "g1";
        var environment = Json.Str(args, "environment") ?? "sandbox";
        var options = new GameCampaignOptions
        {
            ClientKey = "ck_" + game + "_" + environment + ":secret",
            UserId = player,
            RelayUrl = "https://" + game + ".example/" + environment + "/campaign",
            Environment = environment,
            IsTest = environment == "sandbox",
        };
        options.RelayHeaders["authorization"] = "Bearer " + player;
        Apply(options, Json.Obj(Json.Field(file, "options")));
        Apply(options, Json.Obj(Json.Field(args, "options")));
        running = true;
        var init = GameCampaign.Init(options);
        // The draw is fixed as soon as the tracker exists, before its start-up flush could back off: fixed once Init had
        // settled, the start-up flush's first wait was drawn at random (generated story 144 of seed 6017: a retry's time,
        // and so the dates of a session it moved into the clock's present frame, parted from TypeScript's).
        var jitter = Json.Field(file, "jitter");
        if (jitter != null)
        {
            loop.RunUntil(() => init.IsCompleted || FixedJitter.CanApply());
            FixedJitter.Apply(Convert.ToDouble(jitter));
        }
        loop.Run(() => init, "init");
    }

    private static void Apply(GameCampaignOptions options, Dictionary<string, object> tracker)
    {
        if (tracker == null) return;
        foreach (var pair in tracker)
        {
            var ms = Json.Num(tracker, pair.Key);
            if (!ms.HasValue) throw new ScenarioFailure("option " + pair.Key + " is not a number");
            switch (pair.Key)
            {
                case "checkpointMs": options.CheckpointInterval = TimeSpan.FromMilliseconds(ms.Value); break;
                case "backgroundTimeoutMs": options.BackgroundTimeout = TimeSpan.FromMilliseconds(ms.Value); break;
                case "flushIntervalMs": options.FlushInterval = TimeSpan.FromMilliseconds(ms.Value); break;
                case "flushAt": options.FlushAt = (int)ms.Value; break;
                case "maxQueue": options.MaxQueue = (int)ms.Value; break;
                default: throw new ScenarioFailure("unknown option " + pair.Key);
            }
        }
    }

    /// <summary>The OS kills the process: no quit message; its posted work, timers and handlers are gone; storage stays.</summary>
    private void Kill()
    {
        running = false;
        paused = false;
        NewProcess();
    }

    private void Quit()
    {
        Application.Quit(); // raises Application.quitting, as Unity does before the player exits
        loop.Settle();
        running = false;
        paused = false;
        NewProcess();
    }

    /// <summary>Time passes: both clocks move to each due timer in turn, which runs in a frame (Update), and its I/O settles.</summary>
    private void Advance(double ms)
    {
        var target = monoMs + ms;
        if (Suspended)
        {
            // No frame comes while the game is paused: the timers due meanwhile run as the pause ends.
            monoMs = target;
            loop.SettleFiles();
            return;
        }
        for (var frames = 0; ; frames++)
        {
            if (frames > 2000000) throw new ScenarioFailure("timers kept firing: more than 2,000,000 frames");
            var next = running ? ManagedTimers.NextDueMs() : double.PositiveInfinity;
            if (next > target) break;
            monoMs = Math.Max(monoMs, next);
            Frame();
        }
        monoMs = target;
        Frame();
    }

    /// <summary>Whether the game is paused now (OnApplicationPause(true) the last pause message of this process).</summary>
    private bool paused;

    /// <summary>
    /// A paused game: Unity runs no main-thread code (no frame, no Update, nothing posted to its context) until the pause
    /// ends, and the OS may kill it there (FORMAT.md, "A paused game runs nothing"): only the file work asked for before
    /// goes on. Android and iOS pause every app in the background, a desktop player or the Editor whose Run In Background
    /// is off (the default) as it loses focus (Unity's ScriptReference, Application.runInBackground and
    /// MonoBehaviour.OnApplicationPause).
    /// </summary>
    private bool Suspended { get { return paused && running; } }

    /// <summary>The pause messages were sent: the main thread runs what they posted, unless the game is now paused.</summary>
    private void Paused(bool pause)
    {
        paused = pause;
        if (Suspended) loop.SettleFiles();
        else loop.Settle();
    }

    /// <summary>
    /// The game calls the SDK while it is paused, which it cannot do there: its main thread runs then, a frame first (what
    /// fell due meanwhile runs, as when a frame comes).
    /// </summary>
    private void GameCall()
    {
        if (!Suspended) return;
        Lifecycle.Update();
        loop.Settle();
    }

    private void Frame()
    {
        if (!running) return;
        if (Suspended)
        {
            loop.SettleFiles();
            return;
        }
        Lifecycle.Update();
        loop.Settle();
    }

    private void Network(string state)
    {
        if (state != "offline" && state != "online") throw new ScenarioFailure("network is offline or online");
        Application.Reachability = state == "online" ? NetworkReachability.ReachableViaLocalAreaNetwork : NetworkReachability.NotReachable;
        Frame(); // the next frame sees internetReachability change
    }

    private void Relay(object value)
    {
        var text = value as string;
        var script = Json.Obj(value);
        relay.RetryAfterSeconds = null;
        if (text == "accept" || text == "unreachable" || text == "answer-lost") relay.Mode = text;
        else if (script != null && Json.Num(script, "status").HasValue)
        {
            relay.Mode = "status";
            relay.Status = (int)Json.Num(script, "status").Value;
            relay.RetryAfterSeconds = Json.Num(script, "retryAfterSeconds");
        }
        else if (script != null && Json.Str(script, "reject") != null)
        {
            relay.Mode = "reject";
            relay.RejectReason = Json.Str(script, "reject");
        }
        else if (script != null && script.ContainsKey("itemStatus"))
        {
            relay.Mode = "itemStatus";
            relay.ItemStatus = Json.Str(script, "itemStatus");
            relay.RetryAfterSeconds = Json.Num(script, "retryAfterSeconds");
        }
        else throw new ScenarioFailure("unknown relay script " + Json.Serialize(value));
    }

    /// <summary>Damage as a power loss mid-write does: every tracker file cut to half its length, and the first to zero bytes.</summary>
    private void Storage(string state)
    {
        if (state == "unwritable") TrackerFiles.RefuseWrite = path => true;
        else if (state == "writable") TrackerFiles.RefuseWrite = null;
        else if (state == "truncate")
        {
            var root = Path.Combine(device, "GameCampaign");
            var paths = Directory.Exists(root) ? new List<string>(Directory.GetFiles(root, "*.json", SearchOption.AllDirectories)) : new List<string>();
            paths.Sort(StringComparer.Ordinal);
            for (var i = 0; i < paths.Count; i++)
            {
                var bytes = File.ReadAllBytes(paths[i]);
                var kept = i == 0 ? 0 : bytes.Length / 2;
                using (var stream = new FileStream(paths[i], FileMode.Open, FileAccess.Write)) stream.SetLength(kept);
            }
        }
        else if (state == "newer" || state == "foreign-id" || state == "foreign-user")
        {
            // test/contract/device-storage.ts NEWER_FIELDS: the fields a newer SDK (or a damaged file) may hold.
            var root = Path.Combine(device, "GameCampaign");
            foreach (var path in Directory.Exists(root) ? Directory.GetFiles(root, "*.json", SearchOption.AllDirectories) : new string[0])
            {
                if (Path.GetFileName(Path.GetDirectoryName(path)) != "running") continue;
                var record = Json.Obj(Json.Parse(File.ReadAllText(path)));
                if (record == null) continue;
                if (state == "foreign-user") record["userId"] = "p2"; // FORMAT.md "foreign-user"
                else if (state == "foreign-id") record["sessionId"] = "0e5a4c7e-3b1f-4d2a-9c8b-7a6f5e4d3c2b"; // device-storage.ts FOREIGN_SESSION_ID
                else
                {
                    record["tier"] = "gold";
                    record["durationSeconds"] = 99999.0;
                    record["nested"] = Bridge.Args("a", new List<object> { 1.0, 2.0 });
                }
                File.WriteAllText(path, Json.Serialize(record));
            }
        }
        else throw new ScenarioFailure("unknown storage state " + state);
    }

    /// <summary>
    /// <c>{"storage": {"set": {...}, "remove": [...]}}</c>: every running record rewritten with those fields set and those removed
    /// (test/contract/device-storage.ts <c>addNewerFields</c>): a record that parses but is not what this SDK writes;
    /// <c>{"rename": "id"}</c>: every running record's file renamed <c>{id}.json</c> (<c>renameRunning</c>); <c>{"replace": value}</c>:
    /// every running record's file holds that JSON instead (<c>replaceRunning</c>).
    /// </summary>
    private void EditRunning(Dictionary<string, object> edit)
    {
        if (edit == null) throw new ScenarioFailure("storage needs a string or {\"set\", \"remove\"} or {\"rename\"} or {\"replace\"}");
        var rename = edit.ContainsKey("rename") ? edit["rename"] as string : null;
        var set = Json.Obj(edit.ContainsKey("set") ? edit["set"] : null);
        var remove = edit.ContainsKey("remove") ? edit["remove"] as List<object> : null;
        var root = Path.Combine(device, "GameCampaign");
        foreach (var path in Directory.Exists(root) ? Directory.GetFiles(root, "*.json", SearchOption.AllDirectories) : new string[0])
        {
            if (Path.GetFileName(Path.GetDirectoryName(path)) != "running") continue;
            if (edit.ContainsKey("replace"))
            {
                File.WriteAllText(path, Json.Serialize(edit["replace"])); // device-storage.ts replaceRunning
                continue;
            }
            if (rename != null)
            {
                File.Move(path, Path.Combine(Path.GetDirectoryName(path), rename + ".json")); // the file names the session (RunningStore.ReadAll)
                continue;
            }
            var record = Json.Obj(Json.Parse(File.ReadAllText(path)));
            if (record == null) continue;
            if (set != null) foreach (var field in set) record[field.Key] = field.Value;
            if (remove != null) foreach (var field in remove) record.Remove((string)field);
            File.WriteAllText(path, Json.Serialize(record));
        }
    }
}
