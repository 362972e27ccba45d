// Unity's lifecycle as the package meets it, played on mono with a hand-driven bridge: every Task of Bridge.Call
// completes whatever is thrown, every event handler runs when one throws, the WebGL picker keeps the changes that
// arrive between its answer and the frame that resumes Create, and a second Play mode session in the same domain
// (Enter Play Mode Options, domain reload off) starts from fresh statics. Prints one JSON object for the Node test.
// Compiled with HandNative.cs.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

internal static class LifecycleProbe
{
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main()
    {
        var frames = new FrameContext();
        SynchronizationContext.SetSynchronizationContext(frames);
        CallsComplete();
        UnreadableAnswerFails();
        HandlersAllRun(frames);
        PickerKeepsEarlyChanges(frames);
        PlayModeWithoutDomainReload(frames);
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    /// <summary>Bridge.Call: a Task that completes and no pending entry left, whatever is thrown.</summary>
    private static void CallsComplete()
    {
        var native = new HandNative();
        Bridge.Native = native;
        var selfHolding = new List<object>();
        selfHolding.Add(selfHolding);
        var cases = new Dictionary<string, Func<Task>>
        {
            { "unserializable", () => Bridge.Call("tracker.start", Bridge.Args("metadata", new Dictionary<string, object> { { "when", new object() } })) },
            { "nan", () => Bridge.Call("tracker.start", Bridge.Args("metadata", new Dictionary<string, object> { { "score", double.NaN } })) },
            { "selfHolding", () => Bridge.Call("tracker.start", Bridge.Args("metadata", new Dictionary<string, object> { { "list", selfHolding } })) },
            { "nativeThrows", () => { native.ThrowOnCall = new InvalidOperationException("the plugin failed"); try { return Bridge.Call("boost.current", null); } finally { native.ThrowOnCall = null; } } },
            { "registerThrows", () => { Bridge.Native = native; native.ThrowOnRegister = new EntryPointNotFoundException("GameCampaign_Register"); try { return Bridge.Call("boost.current", null); } finally { native.ThrowOnRegister = null; } } },
        };
        var outcomes = new Dictionary<string, object>();
        foreach (var entry in cases)
        {
            Task task;
            try { task = entry.Value(); }
            catch (Exception thrown) { outcomes[entry.Key] = "threw " + thrown.GetType().Name; continue; }
            var outcome = new Dictionary<string, object> { { "completed", task.IsCompleted }, { "pending", (double)Bridge.PendingCount } };
            if (task.IsFaulted)
            {
                var error = task.Exception.InnerException;
                outcome["type"] = error.GetType().Name;
                var typed = error as GameCampaignException;
                if (typed != null) outcome["code"] = typed.Code;
                outcome["cause"] = error.InnerException == null ? null : error.InnerException.GetType().Name;
            }
            outcomes[entry.Key] = outcome;
        }
        outcomes["callsSent"] = (double)native.Calls.Count;
        Report["calls"] = outcomes;
    }

    /// <summary>An answer too deep for Json.Parse (a server's reply, 70 levels) fails its call instead of leaving it waiting.</summary>
    private static void UnreadableAnswerFails()
    {
        var native = new HandNative();
        Bridge.Native = native;
        var call = Bridge.Call("campaigns.get", Bridge.Args("campaignId", "c1"));
        var other = Bridge.Call("boost.current", null);
        native.Callback("{\"id\":" + native.Calls[0].Key + ",\"ok\":true,\"value\":" + new string('[', 70) + new string(']', 70) + "}");
        var error = call.IsFaulted ? call.Exception.InnerException as GameCampaignException : null;
        Report["unreadableAnswer"] = new Dictionary<string, object>
        {
            { "code", error == null ? (call.IsCompleted ? "completed" : "waiting") : error.Code },
            { "cause", error == null || error.InnerException == null ? null : error.InnerException.GetType().Name },
            { "otherWaiting", !other.IsCompleted },
            { "pending", (double)Bridge.PendingCount },
        };
        native.Answer(native.Calls[1].Key, null);
    }

    /// <summary>One handler throws; the others of the same event still run, and the exception is logged.</summary>
    private static void HandlersAllRun(FrameContext frames)
    {
        var native = new HandNative();
        Bridge.Native = native;
        var ran = new List<object>();
        var logged = Debug.Exceptions.Count;
        Action[] closed = { () => ran.Add("closed 1"), () => { throw new InvalidOperationException("closed handler"); }, () => ran.Add("closed 3") };
        foreach (var handler in closed) WebView.Closed += handler;
        native.Callback = null;
        Bridge.Call("boost.current", null); // registers the callback
        native.Push(new Dictionary<string, object> { { "event", "webview:closed" }, { "data", null } });

        long handle;
        var picker = OpenPicker(native, frames, out handle);
        picker.Changed += state => ran.Add("changed 1");
        picker.Changed += state => { throw new InvalidOperationException("changed handler"); };
        picker.Changed += state => ran.Add("changed 3");
        native.Push(Change(handle, State(false, 2)));

        Report["handlersRan"] = ran;
        Report["handlersLogged"] = (double)(Debug.Exceptions.Count - logged);
        picker.Dispose();
        foreach (var handler in closed) WebView.Closed -= handler;
    }

    /// <summary>A change between the answer to picker.open and the frame that resumes Create is kept.</summary>
    private static void PickerKeepsEarlyChanges(FrameContext frames)
    {
        var native = new HandNative();
        Bridge.Native = native;
        var outcomes = new Dictionary<string, object>();

        // The answer arrives, then a change before the next frame runs Create's continuation.
        var create = CreatorPicker.Create("cmp_1");
        var handle = PickerHandle(native);
        AnswerOpen(native, handle);
        native.Push(Change(handle, State(false, 3)));
        frames.NextFrame();
        outcomes["changeAfterAnswer"] = Describe(create.Result.State);
        outcomes["sentHandle"] = native.Calls.Last().Value.ContainsKey("picker");

        // A change before the answer (the answer's state is older, so the change wins).
        create = CreatorPicker.Create("cmp_1");
        handle = PickerHandle(native);
        native.Push(Change(handle, State(false, 4)));
        AnswerOpen(native, handle);
        frames.NextFrame();
        outcomes["changeBeforeAnswer"] = Describe(create.Result.State);

        // No change: the answer's state.
        outcomes["noChange"] = Describe(OpenPicker(native, frames, out handle).State);
        Report["picker"] = outcomes;
    }

    /// <summary>Play mode entered again without a domain reload: what Unity does is call the SubsystemRegistration methods.</summary>
    private static void PlayModeWithoutDomainReload(FrameContext frames)
    {
        var native = new HandNative();
        Bridge.Native = native;
        var calls = new List<object>();
        WebView.Closed += () => calls.Add("old closed");
        long handle;
        var oldPicker = OpenPicker(native, frames, out handle);
        oldPicker.Changed += state => calls.Add("old changed");
        Bridge.Call("boost.current", null); // left pending by the old session
        Report["pendingBeforeReset"] = (double)Bridge.PendingCount;

        var resets = typeof(Bridge).Assembly.GetTypes()
            .SelectMany(type => type.GetMethods(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic))
            .Where(method => method.GetCustomAttributes(typeof(RuntimeInitializeOnLoadMethodAttribute), false).Cast<RuntimeInitializeOnLoadMethodAttribute>().Any(a => a.loadType == RuntimeInitializeLoadType.SubsystemRegistration))
            .ToList();
        Report["resetMethods"] = resets.Select(method => (object)(method.DeclaringType.Name + "." + method.Name)).OrderBy(name => (string)name, StringComparer.Ordinal).ToList();
        foreach (var reset in resets) reset.Invoke(null, null);

        Report["oldNativeDisposed"] = native.Disposed;
        Report["pendingAfterReset"] = (double)Bridge.PendingCount;
        Report["nativeAfterReset"] = Bridge.Native.GetType().Name;
        string oldPickerSearch;
        try { oldPicker.Search("x"); oldPickerSearch = "sent"; }
        catch (ObjectDisposedException) { oldPickerSearch = "disposed"; }
        Report["oldPickerAfterReset"] = oldPickerSearch;

        // The new session: its own native and handlers; events still reach the SDK's dispatchers.
        var fresh = new HandNative();
        Bridge.Native = fresh;
        WebView.Closed += () => calls.Add("new closed");
        Tracker.Flushed += e => calls.Add("new flushed " + e.Results.Count);
        Bridge.Call("boost.current", null);
        fresh.Push(new Dictionary<string, object> { { "event", "webview:closed" }, { "data", null } });
        fresh.Push(Change(handle, State(false, 5)));
        fresh.Push(new Dictionary<string, object> { { "event", "flushed" }, { "data", new Dictionary<string, object> { { "results", new List<object>() } } } });
        long newHandle;
        OpenPicker(fresh, frames, out newHandle);
        Report["newPickerHandleDiffers"] = newHandle != handle;
        Report["afterReset"] = calls;
    }

    /// <summary>A picker opened the plain way: its answer, then the frame that resumes Create.</summary>
    private static CreatorPicker OpenPicker(HandNative native, FrameContext frames, out long handle)
    {
        var create = CreatorPicker.Create("cmp_1");
        handle = PickerHandle(native);
        AnswerOpen(native, handle);
        frames.NextFrame();
        return create.Result;
    }

    private static void AnswerOpen(HandNative native, long handle)
    {
        native.Answer(native.Calls.Last().Key, new Dictionary<string, object> { { "picker", (double)handle }, { "state", State(true, 0) } });
    }

    private static long PickerHandle(HandNative native)
    {
        object handle;
        return native.Calls.Last().Value.TryGetValue("picker", out handle) ? (long)(double)handle : 1;
    }

    private static Dictionary<string, object> State(bool loading, int creators)
    {
        var list = new List<object>();
        for (var i = 0; i < creators; i++) list.Add(new Dictionary<string, object> { { "creatorKey", "C" + i }, { "creatorName", "Creator " + i }, { "creatorId", (double)i } });
        return new Dictionary<string, object> { { "creators", list }, { "loading", loading }, { "query", "" }, { "searching", false }, { "canConfirm", false }, { "confirming", false } };
    }

    private static Dictionary<string, object> Change(long handle, Dictionary<string, object> state)
    {
        return new Dictionary<string, object> { { "event", "picker:change" }, { "picker", (double)handle }, { "data", state } };
    }

    private static string Describe(PickerState state) { return "loading=" + state.Loading + " creators=" + state.Creators.Count; }
}
