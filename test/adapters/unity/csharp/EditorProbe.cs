// Play mode in the Editor, as far as mono can stand in for it: the package's C# compiled without UNITY_WEBGL (so
// GameCampaign runs on ManagedNative over the stand-in UnityWebRequest), on a main thread that pumps its own
// SynchronizationContext as Unity's player loop does, against the emulator and a relay the Node test started.
// One phase per run (a run is one Play mode session): `record`, `queue` (the relay unreachable, then quitting
// with a session running) and `recover` (the next run). Prints one JSON report.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

/// <summary>Unity's main thread: one thread running posted continuations in order until the body completes.</summary>
internal sealed class MainThread : SynchronizationContext
{
    private readonly BlockingCollection<KeyValuePair<SendOrPostCallback, object>> queue = new BlockingCollection<KeyValuePair<SendOrPostCallback, object>>();

    public override void Post(SendOrPostCallback callback, object state) { queue.Add(new KeyValuePair<SendOrPostCallback, object>(callback, state)); }

    public static void Run(Func<Task> body)
    {
        var thread = new MainThread();
        SetSynchronizationContext(thread);
        var task = body();
        task.ContinueWith(_ => thread.queue.CompleteAdding(), TaskScheduler.Default);
        foreach (var item in thread.queue.GetConsumingEnumerable()) item.Key(item.Value);
        task.GetAwaiter().GetResult();
    }
}

internal static class EditorProbe
{
    private static DateTime now;
    private static double monotonicMs;
    private static PlayerFolder folder;
    private static readonly List<object> Events = new List<object>();
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        var phase = args[0];
        var options = new GameCampaignOptions { ClientKey = args[1], UserId = args[2], RelayUrl = args[3], BaseUrl = args[4] };
        options.RelayHeaders["authorization"] = "Bearer " + options.UserId;
        // The device's clock is 3 hours behind (the relay moves the sessions by the difference it sees in sentAt).
        now = DateTime.UtcNow.AddHours(-3);
        DeviceClock.UtcNow = () => now;
        MonotonicClock.NowMs = () => monotonicMs;
        Tracker.SessionStarted += e => Events.Add("session:start " + e.SessionId);
        Tracker.SessionEnded += e => Events.Add("session:end " + e.SessionId + " " + e.Reason + " " + e.Session.DurationSeconds);
        Tracker.Flushed += e => { foreach (var result in e.Results) Events.Add("flushed " + result.SessionId + " " + result.Status); };
        Tracker.Dropped += e => Events.Add("dropped " + e.SessionId + " " + e.Reason);
        Tracker.Error += e => Events.Add("error " + e.Kind + " " + e.Status);
        Report["mainThread"] = (double)Thread.CurrentThread.ManagedThreadId;
        MainThread.Run(async () =>
        {
            await GameCampaign.Init(options);
            folder = ((ManagedNative)Bridge.Native).Sdk.Tracker.Folder;
            if (phase == "record") await Record(args[5]);
            else if (phase == "queue") await Queue(args[5]);
            else if (phase == "recover") await Recover();
            else if (phase == "webview-urls") await WebViewUrls(args[5]);
            else if (phase == "webview-overtaken") await WebViewOvertaken();
            Report["continuationsOnMainThread"] = Thread.CurrentThread.ManagedThreadId == (int)(double)Report["mainThread"];
        });
        Report["events"] = Events;
        Report["queued"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
        Report["loggedExceptions"] = Json.Write(UnityEngine.Debug.Exceptions, e => (object)e.ToString());
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    /// <summary>Play goes on for <paramref name="seconds"/>: both clocks move.</summary>
    private static void Pass(int seconds)
    {
        now = now.AddSeconds(seconds);
        monotonicMs += seconds * 1000;
    }

    private static async Task Record(string campaignId)
    {
        Report["supported"] = GameCampaign.IsSupported;
        Report["webgl"] = GameCampaign.IsWebGl;
        var campaign = await Campaigns.Get(campaignId);
        Report["campaign"] = campaign.CampaignId;
        Report["search"] = Json.Write(await Creators.Search("Luna", 5), c => (object)c.CreatorKey);
        Report["boost"] = Describe(await Catch(Boost.Change("NOVA1", campaignId)));
        Report["missing"] = Describe(await Catch(Campaigns.Get("cmp_missing")));
        var sessionId = await Tracker.Start(campaignId);
        Report["sessionId"] = sessionId;
        Pass(5);
        await Tracker.Stop();
        await Tracker.Flush(); // after the flush Stop started: nothing left to send
        await Tracker.Flush();
        await WebView.Open(new WebViewOpenOptions { CampaignId = campaignId, ShowCampaignDetail = true });
        Report["openedUrls"] = Json.Write(Application.OpenedUrls, url => (object)url);
        Report["picker"] = Describe(await Catch(CreatorPicker.Create(campaignId)));
    }

    private static async Task Queue(string campaignId)
    {
        var first = await Tracker.Start(campaignId);
        Pass(7);
        await Tracker.Stop();
        await Tracker.Flush(); // the relay cannot be reached: kept
        var second = await Tracker.Start(campaignId);
        Pass(3);
        Application.Quit(); // leaving Play mode with a session running: stored for the next run
        Report["sessionIds"] = new List<object> { first, second };
    }

    private static async Task Recover()
    {
        await Tracker.Flush(); // after the flush Init started
        await Tracker.Flush();
    }

    /// <summary>Opens the web view once per address the stand-in relay answers (<paramref name="count"/> of them).</summary>
    private static async Task WebViewUrls(string count)
    {
        var errors = new List<object>();
        for (var i = 0; i < int.Parse(count); i++) errors.Add(DescribeWithMessage(await Catch(WebView.Open(new WebViewOpenOptions()))));
        Report["errors"] = errors;
        Report["openedUrls"] = Json.Write(Application.OpenedUrls, url => (object)url);
    }

    /// <summary>
    /// Two Opens in a row (a double tap), then an Open overtaken by Close, then one by Dispose: only the Open called
    /// last of the first two reaches the browser; each overtaken one completes without error, and so does a second Dispose.
    /// </summary>
    private static async Task WebViewOvertaken()
    {
        var errors = new List<object>();
        var first = WebView.Open(new WebViewOpenOptions { CampaignId = "cmp_first" });
        var second = WebView.Open(new WebViewOpenOptions { CampaignId = "cmp_second" });
        errors.Add(Describe(await Catch(first)));
        errors.Add(Describe(await Catch(second)));
        var closed = WebView.Open(new WebViewOpenOptions { CampaignId = "cmp_closed" });
        await WebView.Close();
        errors.Add(Describe(await Catch(closed)));
        var disposed = WebView.Open(new WebViewOpenOptions { CampaignId = "cmp_disposed" });
        await GameCampaign.Dispose();
        errors.Add(Describe(await Catch(disposed)));
        errors.Add(Describe(await Catch(GameCampaign.Dispose()))); // a second Dispose (OnDestroy, then OnApplicationQuit) completes too
        Report["errors"] = errors;
        Report["openedUrls"] = Json.Write(Application.OpenedUrls, url => (object)url);
    }

    private static object DescribeWithMessage(Exception error)
    {
        var described = Describe(error) as Dictionary<string, object>;
        if (described != null) described["message"] = error.Message;
        return described ?? Describe(error);
    }

    private static async Task<Exception> Catch(Task task)
    {
        try { await task; return null; }
        catch (Exception error) { return error; }
    }

    private static object Describe(Exception error)
    {
        var typed = error as GameCampaignException;
        if (typed == null) return error == null ? "no error" : error.GetType().Name + ": " + error.Message;
        var o = new Dictionary<string, object>();
        Json.Put(o, "name", typed.ErrorName);
        Json.Put(o, "code", typed.Code);
        Json.Put(o, "status", typed.Status.HasValue ? (object)(double)typed.Status.Value : null);
        Json.Put(o, "daysRemaining", typed.DaysRemaining.HasValue ? (object)(double)typed.DaysRemaining.Value : null);
        return o;
    }
}
