// A game that calls the SDK before the first scene, from its own [RuntimeInitializeOnLoadMethod(SubsystemRegistration)]
// (a game's early boot code, an analytics wrapper); Unity calls the methods of one load type in no guaranteed order.
// A program of its own (ManagedLifecycleProbe is near mono full AOT's trampoline limit), one story per run (args: device
// folder, story):
// - "worker": the package's SubsystemRegistration methods ran first, then the game's starts the SDK from Task.Run;
// - "player-order": a built player (Application.isEditor false) where the game's method ran first, on the main thread:
//   it adds its tracker handlers and calls Init, then the package's SubsystemRegistration methods run.
// - "editor-order": the same order in the Editor entering Play mode with its domain reloaded (Enter Play Mode Options off,
//   the default: stubs/UnityEditor.cs). Compiled with UNITY_EDITOR, as Unity compiles a package for the Editor.
// Prints one JSON report that test/adapters/unity/managed-lifecycle.test.ts checks.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedEarlyWorkerProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        ProbeDevice.Open(args[0]);
        var main = Thread.CurrentThread.ManagedThreadId;
        Func<string> where = () => Thread.CurrentThread.ManagedThreadId == main ? "main" : "worker";
        var raisedOn = new List<object>();
        Task init = null;
        // Unity's start of a player, on the main thread (Scripting API, RuntimeInitializeLoadType): the package's
        // SubsystemRegistration methods, then the game's own, which calls Init from a worker and waits for the call to be
        // made (not for its Task: that completes on the main thread, which is busy starting the player).
        // Init's native side makes the tracker's lifecycle object (a GameObject): Unity's API, main thread only.
        GameObject.Added = component => { if (component is ManagedLifecycle) Report["lifecycleMadeOn"] = where(); };
        Action game = () =>
        {
            Tracker.SessionStarted += e => raisedOn.Add("start " + where());
            Tracker.SessionEnded += e => raisedOn.Add("end " + where());
            Tracker.Flushed += e => raisedOn.Add("flushed " + where());
            init = GameCampaign.Init(ProbeDevice.Options("early-" + args[1]));
        };
        if (args[1] == "worker")
        {
            RunPackage(RuntimeInitializeLoadType.SubsystemRegistration);
            Task.Run(game).Wait();
        }
        else
        {
            Application.Editor = args[1] == "editor-order";
#if UNITY_EDITOR
            UnityEditor.EditorSettings.enterPlayModeOptionsEnabled = false; // Play mode reloads the domain
#endif
            game();
            RunPackage(RuntimeInitializeLoadType.SubsystemRegistration);
        }
        foreach (var loadType in new[] { RuntimeInitializeLoadType.AfterAssembliesLoaded, RuntimeInitializeLoadType.BeforeSplashScreen, RuntimeInitializeLoadType.BeforeSceneLoad, RuntimeInitializeLoadType.AfterSceneLoad }) RunPackage(loadType);
        Loop.Settle();
        // The game plays on the main thread from its first scene on.
        var started = Tracker.Start();
        Loop.Settle();
        ProbeDevice.Pass(3000);
        var stopped = Tracker.Stop();
        Loop.Settle();
        var flushed = Tracker.Flush();
        Loop.Settle();
        Task.WaitAll(new[] { init, started, stopped, flushed }, 10000);
        Report["events"] = raisedOn;
        Report["tasks"] = string.Join(" ", new[] { init, started, stopped, flushed }.Select(task => task.Status.ToString()).ToArray());
        Report["received"] = Json.Write(ProbeDevice.Relay.Received, session => (object)(session.Player + " " + session.DurationSeconds));
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    /// <summary>The package's [RuntimeInitializeOnLoadMethod]s of one load type, as Unity runs them on the main thread.</summary>
    private static void RunPackage(RuntimeInitializeLoadType loadType)
    {
        foreach (var method in typeof(GameCampaign).Assembly.GetTypes().SelectMany(type => type.GetMethods(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic)))
        {
            var attribute = method.GetCustomAttributes(typeof(RuntimeInitializeOnLoadMethodAttribute), false).Cast<RuntimeInitializeOnLoadMethodAttribute>().FirstOrDefault();
            if (attribute != null && attribute.loadType == loadType) method.Invoke(null, null);
        }
        if (loadType == RuntimeInitializeLoadType.SubsystemRegistration) HttpExchange.Transport = ProbeDevice.Relay.Exchange; // the stand-in relay (no SDK reset touches it)
    }
}
