// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>
    /// The managed tracker's file work, off the main thread and one job at a time in the order asked (so a session
    /// written before its running record is deleted stays written first): a flushed write (fsync) can take tens of
    /// ms on a phone, which no frame should wait for. A job's Task completes on the thread pool; the code awaiting it
    /// resumes on the main thread through Unity's SynchronizationContext, so events are raised there.
    /// </summary>
    internal static class IoQueue
    {
        private static readonly object Gate = new object();
        private static readonly Queue<Action> Jobs = new Queue<Action>();
        private static bool draining;
        private static int unfinished;
        /// <summary>Jobs asked for, and jobs completed, since the process started (one worker, in order: job n completes before n + 1).</summary>
        private static long asked, completed;

        /// <summary>Jobs asked for and not yet completed (tests wait for 0 before they look at the files).</summary>
        internal static int Unfinished { get { lock (Gate) return unfinished; } }

        /// <summary>Raised (on the worker) after each job completed; tests wake on it.</summary>
        internal static event Action Progressed;

        /// <summary>Runs <paramref name="work"/> on the worker; its value or exception completes the Task.</summary>
        internal static Task<T> Run<T>(Func<T> work)
        {
            var done = new TaskCompletionSource<T>();
            Enqueue(() =>
            {
                T value;
                try { value = work(); }
                catch (Exception error)
                {
                    Complete(() => done.TrySetException(error));
                    return;
                }
                Complete(() => done.TrySetResult(value));
            });
            return done.Task;
        }

        /// <summary>
        /// Completes a job's Task. Its awaiting code is posted to the main thread from here; if that throws (a main
        /// thread already gone: the player exiting), the worker logs it and goes on with the next job.
        /// </summary>
        private static void Complete(Func<bool> complete)
        {
            try { complete(); }
            catch (Exception error) { UnityEngine.Debug.LogException(error); }
        }

        /// <summary>Like <see cref="Run{T}"/>, for work without a value.</summary>
        internal static Task Run(Action work)
        {
            return Run<bool>(() => { work(); return true; });
        }

        /// <summary>How long one job of <see cref="RunEach{T, R}"/> keeps the worker, ms, before the rest of its list goes to a job of its own.</summary>
        internal const int SliceMs = 50;

        /// <summary>
        /// <paramref name="work"/> on each of <paramref name="items"/>, in order, on the worker: a job does items until
        /// <see cref="SliceMs"/> have passed (one at least), and the next job (the rest) is asked for once it completed, by
        /// the awaiting code on the main thread. So a job asked for meanwhile runs between two slices, not after the whole
        /// list: a pause's checkpoint waits for one slice of a flush's thousand reads on a slow phone, not for all of them
        /// (a paused app's main thread asks for no next slice while the pause waits). Found by p48
        /// (test/adapters/unity/managed-suspend.test.ts): a 400-file read at 20 ms a file held the pause's write past its
        /// 1 s wait, and a kill lost the play since the last checkpoint. Jobs still complete in the order asked for, so
        /// <see cref="WaitFor"/> keeps its meaning; a caller must allow for work done between slices (a file deleted meanwhile).
        /// <paramref name="sliceDone"/>, if given, hears each slice's results on the awaiting thread, and is awaited before the
        /// next slice is asked for (what a slice decided is told to the game before more is done).
        /// </summary>
        internal static async Task<List<R>> RunEach<T, R>(IList<T> items, Func<T, R> work, Func<List<R>, Task> sliceDone = null)
        {
            var results = new List<R>(items.Count);
            while (results.Count < items.Count)
            {
                var from = results.Count;
                var done = await Run(() =>
                {
                    var slice = new List<R>();
                    var spent = Stopwatch.StartNew();
                    for (var i = from; i < items.Count && (slice.Count == 0 || spent.ElapsedMilliseconds < SliceMs); i++) slice.Add(work(items[i]));
                    return slice;
                });
                results.AddRange(done);
                if (sliceDone != null) await sliceDone(done);
            }
            return results;
        }

        /// <summary>Blocks until every job asked for has completed, or <paramref name="timeoutMs"/> passed; false on time-out.</summary>
        internal static bool WaitIdle(int timeoutMs)
        {
            return WaitFor(Mark, timeoutMs);
        }

        /// <summary>The last job asked for so far: <see cref="WaitFor"/> it to wait for those jobs and none asked for later.</summary>
        internal static long Mark { get { lock (Gate) return asked; } }

        /// <summary>
        /// Blocks until the jobs up to <paramref name="mark"/> have completed, or <paramref name="timeoutMs"/> passed; false on time-out.
        /// Timed by a Stopwatch (a monotonic clock: mono's and IL2CPP's <c>mono_100ns_ticks</c>, CLOCK_MONOTONIC or
        /// QueryPerformanceCounter), which the player or NTP moving the device clock leaves alone: before, a wall clock
        /// moved ahead while a pause waited for its checkpoint gave up on it at once, and one moved back held the frame.
        /// </summary>
        internal static bool WaitFor(long mark, int timeoutMs)
        {
            var waited = Stopwatch.StartNew();
            lock (Gate)
            {
                while (completed < mark)
                {
                    var left = timeoutMs - waited.ElapsedMilliseconds;
                    if (left <= 0) return false;
                    Monitor.Wait(Gate, (int)left);
                }
                return true;
            }
        }

        private static void Enqueue(Action job)
        {
            lock (Gate)
            {
                unfinished++;
                asked++;
                Jobs.Enqueue(job);
                if (draining) return;
                draining = true;
            }
            ThreadPool.QueueUserWorkItem(_ => Drain());
        }

        private static void Drain()
        {
            while (true)
            {
                Action job;
                lock (Gate)
                {
                    if (Jobs.Count == 0)
                    {
                        draining = false;
                        return;
                    }
                    job = Jobs.Dequeue();
                }
                job();
                lock (Gate)
                {
                    unfinished--;
                    completed++;
                    Monitor.PulseAll(Gate);
                }
                var progressed = Progressed;
                if (progressed != null) progressed();
            }
        }
    }
}
#endif
