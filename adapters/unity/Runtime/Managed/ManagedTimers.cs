// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>A timer of <see cref="ManagedTimers"/>; <see cref="Cancel"/> stops it (again: nothing).</summary>
    internal sealed class ManagedTimer
    {
        internal double DueMs;
        internal double RepeatMs;
        internal long Order;
        internal Action Action;
        internal bool Cancelled;

        internal void Cancel() { Cancelled = true; }
    }

    /// <summary>
    /// The managed tracker's timers (flush interval, checkpoints, background time-out, retries): due times on the
    /// <see cref="MonotonicClock"/>, run on the main thread by <see cref="Tick"/>, which <see cref="ManagedLifecycle"/>
    /// calls every frame (tests call it as they move the clock). Nothing here waits on a thread: a timer is late by
    /// at most one frame, and a paused app (no frames) runs what fell due when it resumes, in due order.
    /// A repeating timer keeps its rhythm (due, due + repeat, ...), as <c>setInterval</c> does, and like it runs once,
    /// not once per period, after a stretch without frames (then its rhythm starts again from that frame).
    /// </summary>
    internal static class ManagedTimers
    {
        private static List<ManagedTimer> timers = new List<ManagedTimer>();
        private static long order;

        /// <summary>Runs <paramref name="action"/> once <paramref name="delayMs"/> have passed, then every <paramref name="repeatMs"/> (0: once).</summary>
        internal static ManagedTimer Schedule(double delayMs, Action action, double repeatMs = 0)
        {
            var timer = new ManagedTimer { DueMs = MonotonicClock.NowMs() + Math.Max(0, delayMs), RepeatMs = repeatMs, Order = order++, Action = action };
            timers.Add(timer);
            return timer;
        }

        /// <summary>When the next live timer is due (ms on the monotonic clock); +infinity when none is.</summary>
        internal static double NextDueMs()
        {
            var next = double.PositiveInfinity;
            foreach (var timer in timers) if (!timer.Cancelled && timer.DueMs < next) next = timer.DueMs;
            return next;
        }

        /// <summary>Runs every timer due now, earliest first; a throwing action is logged and the others still run.</summary>
        internal static void Tick()
        {
            var now = MonotonicClock.NowMs();
            while (true)
            {
                ManagedTimer due = null;
                foreach (var timer in timers)
                {
                    if (timer.Cancelled || timer.DueMs > now) continue;
                    if (due == null || timer.DueMs < due.DueMs || (timer.DueMs == due.DueMs && timer.Order < due.Order)) due = timer;
                }
                timers.RemoveAll(timer => timer.Cancelled);
                if (due == null) return;
                if (due.RepeatMs > 0)
                {
                    due.DueMs += due.RepeatMs;
                    // More than a period late (no frame ran: the Editor paused, a debugger, a window being dragged): it runs
                    // once and keeps its rhythm from now, as setInterval does, not once per period missed.
                    if (due.DueMs <= now) due.DueMs = now + due.RepeatMs;
                    due.Order = order++;
                }
                else due.Cancel();
                try { due.Action(); }
                catch (Exception error) { Debug.LogException(error); }
            }
        }

        /// <summary>Forgets every timer: a new process, or Play mode entered again without a domain reload.</summary>
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        internal static void ResetStatics()
        {
            if (!Bridge.LastPlaySessionMayRemain) return;
            timers = new List<ManagedTimer>();
            order = 0;
        }
    }
}
#endif
