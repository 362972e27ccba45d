// A game whose first SDK call is made on another thread (GameCampaign.Init after an await with ConfigureAwait(false), in
// Task.Run): a program of its own, started as Unity starts a player (every [RuntimeInitializeOnLoadMethod] of the
// package, in Unity's order, on the main thread, before any scene), so no SDK call has been made on the main thread yet.
// Prints one JSON report that test/adapters/unity/managed-lifecycle.test.ts checks. args: device folder.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedWorkerStartProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        ProbeDevice.Open(args[0]);
        PlayerStarts();
        var main = Thread.CurrentThread.ManagedThreadId;
        Func<string> where = () => Thread.CurrentThread.ManagedThreadId == main ? "main" : "worker";
        var raisedOn = new List<object>();
        Tracker.SessionStarted += e => raisedOn.Add("start " + where());
        Tracker.SessionEnded += e => raisedOn.Add("end " + where());
        Tracker.Flushed += e => raisedOn.Add("flushed " + where());
        // Every call on a worker thread, the first one Init: each must run on the main thread (Unity's API, the SDK's timers and events).
        Task init = null, started = null, stopped = null, flushed = null;
        Task.Run(() => { init = GameCampaign.Init(ProbeDevice.Options("worker-first")); }).Wait();
        Loop.Settle();
        Task.Run(() => { started = Tracker.Start(); }).Wait();
        Loop.Settle();
        ProbeDevice.Pass(3000);
        Task.Run(() => { stopped = Tracker.Stop(); }).Wait();
        Loop.Settle();
        Task.Run(() => { flushed = Tracker.Flush(); }).Wait();
        Loop.Settle();
        Task.WaitAll(new[] { init, started, stopped, flushed }, 10000);
        Report["events"] = raisedOn;
        Report["tasks"] = string.Join(" ", new[] { init, started, stopped, flushed }.Select(task => task.Status.ToString()).ToArray());
        Report["received"] = Json.Write(ProbeDevice.Relay.Received, session => (object)(session.Player + " " + session.DurationSeconds));
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    /// <summary>
    /// What Unity runs on the main thread as a player starts, before the first scene's Awake (Scripting API,
    /// RuntimeInitializeLoadType: SubsystemRegistration, AfterAssembliesLoaded, BeforeSplashScreen, BeforeSceneLoad, then
    /// AfterSceneLoad after the scene loaded), for every [RuntimeInitializeOnLoadMethod] of the package.
    /// </summary>
    private static void PlayerStarts()
    {
        var order = new[] { RuntimeInitializeLoadType.SubsystemRegistration, RuntimeInitializeLoadType.AfterAssembliesLoaded, RuntimeInitializeLoadType.BeforeSplashScreen, RuntimeInitializeLoadType.BeforeSceneLoad, RuntimeInitializeLoadType.AfterSceneLoad };
        var methods = typeof(GameCampaign).Assembly.GetTypes()
            .SelectMany(type => type.GetMethods(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic))
            .Select(method => new { method, attribute = method.GetCustomAttributes(typeof(RuntimeInitializeOnLoadMethodAttribute), false).Cast<RuntimeInitializeOnLoadMethodAttribute>().FirstOrDefault() })
            .Where(pair => pair.attribute != null)
            .ToList();
        foreach (var loadType in order) foreach (var pair in methods) if (pair.attribute.loadType == loadType) pair.method.Invoke(null, null);
        HttpExchange.Transport = ProbeDevice.Relay.Exchange; // the stand-in relay (no SDK reset touches it)
    }
}
