// Unity's main thread, driven by the runner: continuations posted to it run only when the runner settles it, and
// settling also waits for the tracker's file work (IoQueue) to finish, so every step ends with nothing pending and
// nothing depends on real time passing; while the game is paused, the runner settles only the file work (SettleFiles:
// a paused player runs nothing on its main thread).
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;

internal sealed class MainLoop : SynchronizationContext
{
    private readonly object gate = new object();
    private readonly Queue<KeyValuePair<SendOrPostCallback, object>> posted = new Queue<KeyValuePair<SendOrPostCallback, object>>();
    private readonly System.Diagnostics.Stopwatch watch = new System.Diagnostics.Stopwatch();

    /// <summary>The longest one posted callback ran, ms, since last reset (what one frame of Unity's player loop would spend on it).</summary>
    internal double WorstMs;

    internal MainLoop()
    {
        IoQueue.Progressed += Wake;
    }

    public override void Post(SendOrPostCallback callback, object state)
    {
        lock (gate)
        {
            posted.Enqueue(new KeyValuePair<SendOrPostCallback, object>(callback, state));
            Monitor.PulseAll(gate);
        }
    }

    public override void Send(SendOrPostCallback callback, object state) { throw new NotSupportedException("the main thread does not block on itself"); }

    private void Wake()
    {
        lock (gate) Monitor.PulseAll(gate);
    }

    /// <summary>Runs posted work until none is left and no file work is under way.</summary>
    internal void Settle()
    {
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (true)
        {
            KeyValuePair<SendOrPostCallback, object> next;
            lock (gate)
            {
                if (posted.Count == 0)
                {
                    if (IoQueue.Unfinished == 0) return;
                    if (DateTime.UtcNow > deadline) throw new TimeoutException("file work did not finish within 60 s");
                    Monitor.Wait(gate, 50);
                    continue;
                }
                next = posted.Dequeue();
            }
            watch.Restart();
            next.Key(next.Value);
            WorstMs = Math.Max(WorstMs, watch.Elapsed.TotalMilliseconds);
        }
    }

    /// <summary>Runs posted work until <paramref name="reached"/> holds (checked between callbacks and as file work progresses), file work left under way.</summary>
    internal void RunUntil(Func<bool> reached)
    {
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (!reached())
        {
            KeyValuePair<SendOrPostCallback, object> next;
            lock (gate)
            {
                if (posted.Count == 0)
                {
                    if (DateTime.UtcNow > deadline) throw new TimeoutException("not reached within 60 s");
                    Monitor.Wait(gate, 10);
                    continue;
                }
                next = posted.Dequeue();
            }
            next.Key(next.Value);
        }
    }

    /// <summary>Waits until no file work is under way, running nothing posted (a paused phone's main thread runs nothing).</summary>
    internal void SettleFiles()
    {
        var deadline = DateTime.UtcNow.AddSeconds(60);
        lock (gate)
        {
            while (IoQueue.Unfinished != 0)
            {
                if (DateTime.UtcNow > deadline) throw new TimeoutException("file work did not finish within 60 s");
                Monitor.Wait(gate, 50);
            }
        }
    }

    /// <summary>Forgets what was posted and not yet run: the process was killed.</summary>
    internal void Abandon()
    {
        lock (gate) posted.Clear();
    }

    /// <summary>Starts <paramref name="body"/> on this thread, settles, and returns its outcome (it must have completed).</summary>
    internal void Run(Func<Task> body, string what)
    {
        var task = body();
        Settle();
        if (!task.IsCompleted) throw new InvalidOperationException(what + " did not complete once everything settled");
        task.GetAwaiter().GetResult();
    }
}
