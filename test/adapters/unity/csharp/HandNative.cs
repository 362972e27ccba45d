// The probes' bridge, driven by hand: a native side they answer themselves, and Unity's main thread in miniature.
using System;
using System.Collections.Generic;
using System.Threading;
using GameCampaignSdk;

/// <summary>A native side the probe answers by hand; it can be told to throw, and records being disposed.</summary>
internal sealed class HandNative : INative, IDisposable
{
    public MessageCallback Callback;
    public readonly List<KeyValuePair<int, Dictionary<string, object>>> Calls = new List<KeyValuePair<int, Dictionary<string, object>>>();
    public Exception ThrowOnCall { get; set; }
    public Exception ThrowOnRegister { get; set; }
    public bool Disposed;

    public void Register(MessageCallback callback)
    {
        if (ThrowOnRegister != null) throw ThrowOnRegister;
        Callback = callback;
    }

    public void Call(int requestId, string method, string argsJson)
    {
        if (ThrowOnCall != null) throw ThrowOnCall;
        var args = (Dictionary<string, object>)Json.Parse(argsJson);
        args["method"] = method;
        Calls.Add(new KeyValuePair<int, Dictionary<string, object>>(requestId, args));
    }

    public void Answer(int requestId, object value) { Push(new Dictionary<string, object> { { "id", (double)requestId }, { "ok", true }, { "value", value } }); }

    public void Push(Dictionary<string, object> message) { Callback(Json.Serialize(message)); }

    public void Dispose() { Disposed = true; }

    /// <summary>
    /// Starts a player as Unity does (SubsystemRegistration's reset, then BeforeSceneLoad taking the main context) on
    /// the calling thread, made the main thread by a <see cref="FrameContext"/> the probe pumps; returns the native side.
    /// </summary>
    public static HandNative StartPlayer(out FrameContext frames)
    {
        frames = new FrameContext();
        SynchronizationContext.SetSynchronizationContext(frames);
        Bridge.ResetForPlayMode();
        Bridge.TakeMainContext();
        var native = new HandNative();
        Bridge.Native = native;
        return native;
    }
}

/// <summary>Unity's main thread in miniature: continuations are queued and run when the probe pumps a "frame".</summary>
internal sealed class FrameContext : SynchronizationContext
{
    private readonly Queue<Action> queue = new Queue<Action>();

    public override void Post(SendOrPostCallback callback, object state) { lock (queue) queue.Enqueue(() => callback(state)); }

    public void NextFrame()
    {
        while (true)
        {
            Action next;
            lock (queue)
            {
                if (queue.Count == 0) return;
                next = queue.Dequeue();
            }
            next();
        }
    }
}
