// The Basic sample as docs/guides/unity.md says to try it: its defaults against `npm start` (the emulator and the
// sample game server; args: the two servers' addresses, which the Node test started on free ports). Compiled with
// the package's Samples~ and without UNITY_WEBGL (Play mode: the C# implementation over the stand-in
// UnityWebRequest). Prints the sample's default addresses, then moves only their ports to the test's servers, runs
// Start, plays 3 s with the calls its Play and Stop buttons make, and prints the status line the sample shows.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;
using GameCampaignSdk.Samples;

internal static class SampleServerProbe
{
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        string emulatorUrl = args[0], gameServerUrl = args[1];
        var now = DateTime.UtcNow;
        double monotonicMs = 0;
        DeviceClock.UtcNow = () => now;
        MonotonicClock.NowMs = () => monotonicMs;
        var sample = new GameCampaignSample();
        var defaults = new Dictionary<string, object>();
        foreach (var name in new[] { "clientKey", "relayUrl", "baseUrl", "loginUrl", "playerId", "campaignId" }) defaults[name] = Field(sample, name);
        Report["defaults"] = defaults;
        // `npm start` listens on 8787 (emulator) and 8788 (game server); the test's servers are elsewhere.
        foreach (var name in new[] { "relayUrl", "baseUrl", "loginUrl" })
        {
            var value = Field(sample, name) as string;
            if (value != null) SetField(sample, name, value.Replace("http://127.0.0.1:8787", emulatorUrl).Replace("http://127.0.0.1:8788", gameServerUrl));
        }
        ProbeMainThread.Run(async () =>
        {
            Call(sample, "Start");
            for (var i = 0; i < 1000 && (string)Field(sample, "status") == "starting"; i++) await Task.Delay(10);
            Report["afterStart"] = Field(sample, "status");
            // The Play button, 3 s of play, the Stop button (GameCampaignSample.OnGUI).
            var campaignId = (string)Field(sample, "campaignId");
            Report["sessionId"] = await Tracker.Start(campaignId);
            now = now.AddSeconds(3);
            monotonicMs += 3000;
            await Tracker.Stop();
            await Tracker.Flush();
            Report["afterStop"] = Field(sample, "status");
            Call(sample, "OnDestroy");
        });
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    private static object Field(object component, string name)
    {
        var field = component.GetType().GetField(name, BindingFlags.Instance | BindingFlags.NonPublic);
        return field == null ? null : field.GetValue(component);
    }

    private static void SetField(object component, string name, object value)
    {
        component.GetType().GetField(name, BindingFlags.Instance | BindingFlags.NonPublic).SetValue(component, value);
    }

    /// <summary>Unity calls a MonoBehaviour's private messages by name.</summary>
    private static void Call(object component, string message)
    {
        component.GetType().GetMethod(message, BindingFlags.Instance | BindingFlags.NonPublic).Invoke(component, null);
    }
}

/// <summary>Unity's main thread: one thread running posted continuations in order until the body completes.</summary>
internal sealed class ProbeMainThread : SynchronizationContext
{
    private readonly BlockingCollection<KeyValuePair<SendOrPostCallback, object>> queue = new BlockingCollection<KeyValuePair<SendOrPostCallback, object>>();

    public override void Post(SendOrPostCallback callback, object state) { queue.Add(new KeyValuePair<SendOrPostCallback, object>(callback, state)); }

    public static void Run(Func<Task> body)
    {
        var thread = new ProbeMainThread();
        SetSynchronizationContext(thread);
        var task = body();
        task.ContinueWith(_ => thread.queue.CompleteAdding(), TaskScheduler.Default);
        foreach (var item in thread.queue.GetConsumingEnumerable()) item.Key(item.Value);
        task.GetAwaiter().GetResult();
    }
}
