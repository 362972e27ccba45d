// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>
    /// The tracker's bookkeeping: the events it raises (with JavaScript's names), storage failures reported once until
    /// a session is stored again, the finishing work (writes, deletes) that <c>Stop</c>, <c>Flush</c> and
    /// <c>Dispose</c> wait for, and <c>Dispose</c> itself.
    /// </summary>
    internal sealed partial class ManagedTracker
    {
        /// <summary>Opted out, nothing is sent: the stored choice is read instead, which another copy of the game may have switched back on.</summary>
        private void RequestFlush(FlushTrigger trigger)
        {
            if (disposed) return;
            if (optedOut) ReadChoice();
            else flusher.Flush(trigger);
        }

        /// <summary>The write of this tracker's last own switch (<c>SetOptOut</c>): a choice read while it is under way is not taken.</summary>
        private Task switchStored = Task.FromResult(0);

        /// <summary>
        /// Reads the player's stored choice again (core/tracker/tracker.ts <c>syncChoice</c>): another copy of the game
        /// running at once for this player (the Editor beside a build, two desktop windows; one folder) may have switched
        /// it. Switched off there, the running session is dropped (<c>opted-out</c>) and nothing more is sent; switched on,
        /// this tracker records and sends again. Read before each flush, at each checkpoint tick and on the return to
        /// the foreground; while opted out, at each flush trigger instead of the flush. Not while storage is failing
        /// (nothing to read). A damaged file is left to the next start-up, which sets it aside and reports it.
        /// assumed, as in JavaScript: a copy meets the other's switch within one checkpoint interval.
        /// </summary>
        private void ReadChoice()
        {
            var reading = SyncChoice(); // nothing waits for it: it ends in a state (its reads fail quietly)
            if (reading.IsFaulted) UnityEngine.Debug.LogException(reading.Exception);
        }

        private async Task SyncChoice()
        {
            if (storageFailing || disposed) return;
            var seen = switchStored;
            bool? choice;
            try
            {
                await seen;
                choice = await IoQueue.Run(() => RunningStore.PeekOptOut(folder));
            }
            catch (Exception) { return; }
            if (seen != switchStored || disposed || !choice.HasValue || choice.Value == optedOut) return;
            optedOut = choice.Value;
            if (optedOut)
            {
                ForgetContinuation();
                if (clock != null) End("stop", "opted-out");
            }
            else RequestFlush(FlushTrigger.Manual);
        }

        private void Dropped(string sessionId, string reason, Dictionary<string, object> session)
        {
            sdk.Emit("dropped", Bridge.Args("sessionId", sessionId, "reason", reason, "session", session));
        }

        /// <summary>
        /// A session under 1 s, dropped with what the JavaScript tracker says (core/tracker/tracker.ts <c>finish</c>: the
        /// spec's rule of <c>durationSeconds</c> as its detail, and the detail as its error), so a game reads the same
        /// <see cref="DroppedEvent.Error"/> and <see cref="DroppedEvent.Details"/> in WebGL and native players.
        /// </summary>
        private void DroppedTooShort(string sessionId, Dictionary<string, object> session)
        {
            var detail = Bridge.Args("path", "durationSeconds", "message", Rules.PositiveIntMessage);
            sdk.Emit("dropped", Bridge.Args("sessionId", sessionId, "reason", "too-short", "session", session, "error", "durationSeconds " + Rules.PositiveIntMessage, "details", new List<object> { detail }));
        }

        /// <summary>A storage failure, reported once (<c>error</c>, kind <c>storage</c>) until a session is stored again: not at every checkpoint of a full disk.</summary>
        private void StorageError(Exception error)
        {
            if (!storageFailing) sdk.Emit("error", Bridge.Args("kind", "storage", "message", error.Message));
            storageFailing = true;
        }

        private void ReportSetAside(string path)
        {
            StorageError(new IOException("A damaged tracker file was set aside (kept as " + Path.GetFileName(path) + TrackerFiles.UnreadableSuffix + "); the sessions it held are lost"));
        }

        /// <summary>Finishing work (writes, deletes) that <c>Stop</c>, <c>Flush</c> and <c>Dispose</c> wait for.</summary>
        private void Track(Task work)
        {
            Task tracked = null;
            tracked = Guard(work, () => pending.Remove(tracked));
            if (!tracked.IsCompleted) pending.Add(tracked);
        }

        private async Task Guard(Task work, Action done)
        {
            try { await work; }
            catch (Exception error) { StorageError(error); }
            finally { done(); }
        }

        private async Task Settled()
        {
            while (pending.Count > 0) await Task.WhenAll(pending.ToArray());
        }

        /// <summary>
        /// Ends the running session (stored, sent by the next run), stops timers and listeners, aborts a flush's request
        /// in flight (its batch stays queued), and releases this run's lock once the session is stored (its record
        /// deleted: no other copy may recover it meanwhile) and the flush has ended; completes then, and raises no event after.
        /// assumed, as in JavaScript: no final flush. A player quitting exits before that release runs: the OS releases
        /// the lock, and the next start-up deletes its file.
        /// </summary>
        internal Task Dispose(string reason)
        {
            if (released != null) return released;
            ManagedLifecycle.Backgrounded -= ToBackground;
            ManagedLifecycle.Foregrounded -= ToForeground;
            ManagedLifecycle.NetworkReturned -= OnNetworkReturned;
            Cancel(flushTimer);
            ForgetContinuation();
            if (clock != null) End(reason, null);
            disposed = true;
            flusher.Dispose();
            released = Release();
            return released;
        }

        private async Task Release()
        {
            // Start-up first: it lets go of the dead runs' locks it claimed, so the next tracker of this player (an Init
            // in the same frame) recovers their sessions instead of taking them for a live copy's.
            try { await ready; }
            catch (Exception) { /* reported when it ran */ }
            await flusher.Idle(); // its request aborted, the drain ends at once (core/tracker/flusher.ts dispose awaits it too)
            await Settled();
            // A session held in memory outlives this run if storage takes it now (a full disk with room again).
            try { await queue.PersistHeld(); }
            catch (Exception error) { StorageError(error); }
            var held = await aliveLock;
            if (held != null) await IoQueue.Run(held.Release);
            sdk.Silence(); // nothing of this SDK reaches the game after this (as JavaScript's dispose forgets its listeners)
        }
    }
}
#endif
