// The Basic sample's component as a scene that is loaded three times uses it: Unity calls Start, later OnDestroy,
// and the next load makes a new copy. Prints, as JSON, how many handlers each of the tracker's static events holds
// after each Start and each OnDestroy. The bridge is a HandNative (calls stay pending: no SDK, no network).
// Compiled with HandNative.cs and the package's Samples~.
using System;
using System.Collections.Generic;
using System.Reflection;
using GameCampaignSdk;
using GameCampaignSdk.Samples;

internal static class SampleProbe
{
    private static readonly string[] Events = { "SessionStarted", "SessionEnded", "Flushed", "Dropped", "Error" };

    private static int Main()
    {
        Bridge.Native = new HandNative();
        var loads = new List<object>();
        for (var load = 0; load < 3; load++)
        {
            var sample = new GameCampaignSample();
            Call(sample, "Start");
            var started = Handlers();
            Call(sample, "OnDestroy");
            loads.Add(new Dictionary<string, object> { { "afterStart", started }, { "afterDestroy", Handlers() } });
        }
        Console.WriteLine(Json.Serialize(new Dictionary<string, object> { { "loads", loads } }));
        return ProbeExit.Now(0);
    }

    /// <summary>Unity calls a MonoBehaviour's private messages by name.</summary>
    private static void Call(object component, string message)
    {
        component.GetType().GetMethod(message, BindingFlags.Instance | BindingFlags.NonPublic).Invoke(component, null);
    }

    /// <summary>The handlers of each public static event of <see cref="Tracker"/> (its backing field).</summary>
    private static Dictionary<string, object> Handlers()
    {
        var counts = new Dictionary<string, object>();
        foreach (var name in Events)
        {
            var handlers = typeof(Tracker).GetField(name, BindingFlags.Static | BindingFlags.NonPublic).GetValue(null) as Delegate;
            counts[name] = (double)(handlers == null ? 0 : handlers.GetInvocationList().Length);
        }
        return counts;
    }
}
