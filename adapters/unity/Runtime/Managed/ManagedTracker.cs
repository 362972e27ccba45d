// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>
    /// The playtime tracker outside WebGL (the Editor's Play mode, desktop, Android and iOS players): core/tracker's
    /// promises in C#. Play time is measured on the <see cref="MonotonicClock"/> and paused in the background
    /// (<see cref="ManagedLifecycle"/>); a background longer than <c>backgroundTimeoutMs</c> ends the session when it
    /// went there, and the return continues it as a new session (<c>ManagedTracker.Background.cs</c>). The running session is written ahead when it starts, checkpointed when its play reaches 1 s, every
    /// <c>checkpointMs</c> and on going to the background, so a killed app loses at most one interval: the next
    /// start-up recovers it, ended at its last checkpoint, unless the run that wrote it still lives (another copy of the
    /// game: each run holds an <see cref="AliveLock"/>). Ended sessions go to the player's
    /// <see cref="SessionQueue"/> and are sent by <see cref="ManagedFlusher"/> every <c>flushIntervalMs</c> in the
    /// foreground, at <c>flushAt</c> queued, on going to the background, when the network returns (and by the retry
    /// that fell due while paused, as the game resumes), at start-up and on <c>Flush</c>. The player may switch recording off (persisted) and erase what is stored.
    /// Every outcome is one event, with JavaScript's names (see <see cref="TrackerNames"/>). Runs on the main thread;
    /// file work on <see cref="IoQueue"/>.
    /// </summary>
    internal sealed partial class ManagedTracker
    {
        /// <summary>When the first checkpoint of a session is taken, ms: the spec's minimum session length.</summary>
        private const double FirstCheckpointMs = 1000;

        private readonly ManagedSdk sdk;
        private readonly TrackerSettings settings;
        private readonly PlayerFolder folder;
        private readonly ClockWatch watch = new ClockWatch();
        private readonly RunningStore running;
        private readonly SessionQueue queue;
        private readonly ManagedFlusher flusher;
        private readonly List<Task> pending = new List<Task>();
        /// <summary>This run's id, the owner of its running records; its <see cref="AliveLock"/> is held while it lives.</summary>
        private readonly string runId = AliveLock.NewRunId();
        /// <summary>This run's lock (null where the platform cannot lock), taken before any record of this run is written.</summary>
        private readonly Task<AliveLock> aliveLock;
        /// <summary>Dead runs' locks start-up took: released once their sessions are recovered.</summary>
        private readonly List<AliveLock> claimed = new List<AliveLock>();
        /// <summary>Dispose's work: the session stored, then this run's lock released.</summary>
        private Task released;
        private readonly Task loaded;
        private readonly Task ready;
        private List<RunningRecord> crashed = new List<RunningRecord>();
        private bool optedOut;
        private bool choiceMade;
        private bool storageFailing;
        private bool starting = true;
        private bool disposed;
        private bool inBackground;
        private SessionClock clock;
        private ManagedTimer checkpointTimer;
        /// <summary>When the checkpoint interval last ran (monotonic ms): see <see cref="CheckpointTick"/>.</summary>
        private double lastTick;
        private ManagedTimer firstCheckpointTimer;
        private ManagedTimer backgroundTimer;
        private ManagedTimer flushTimer;

        /// <param name="previous">the previous tracker's wind-down (an Init while one ran): start-up reads storage after it.</param>
        internal ManagedTracker(ManagedSdk sdk, TrackerSettings settings, PlayerFolder folder, Task previous)
        {
            this.sdk = sdk;
            this.settings = settings;
            this.folder = folder;
            optedOut = settings.OptOut;
            // First on the IoQueue, which runs its jobs in order: no record of this run is written before its lock is held.
            aliveLock = IoQueue.Run(() => AliveLock.Take(folder, runId));
            running = new RunningStore(folder, StorageError, runId);
            queue = new SessionQueue(folder, settings.MaxQueue, Dropped, StorageError, sessionId => Track(running.Remove(sessionId)), ReportSetAside, runId);
            flusher = new ManagedFlusher(sdk, queue, watch.Moved, () => !starting && !optedOut, ReportSetAside, SyncChoice);
            inBackground = ManagedLifecycle.Instance.InBackground;
            watch.Background(inBackground);
            ManagedLifecycle.Backgrounded += ToBackground;
            ManagedLifecycle.Foregrounded += ToForeground;
            ManagedLifecycle.NetworkReturned += OnNetworkReturned;
            if (!inBackground) FlushEvery();
            loaded = Load(previous);
            ready = StartUp();
        }

        /// <summary>The player's folder (tests count its files).</summary>
        internal PlayerFolder Folder { get { return folder; } }

        /// <summary>Start-up is done: storage read, crashed sessions recovered, the first flush asked for.</summary>
        internal Task Ready { get { return ready; } }

        private double Now() { return MonotonicClock.NowMs(); }

        // ---- the running session --------------------------------------------------------------------------------

        internal string Start(Dictionary<string, object> args)
        {
            if (disposed) throw new InvalidOperationException("the tracker was disposed");
            TrackerSettings.CheckSessionFields(RuleTables.StartFields, args, "start"); // before the running session ends: a bad call changes nothing
            ForgetContinuation();
            if (clock != null) End("restart", null);
            if (optedOut) return "";
            return Begin(Json.Str(args, "campaignId") ?? sdk.CampaignId, Json.Str(args, "creatorKey") ?? sdk.CreatorKey, Json.Field(args, "metadata"), null);
        }

        /// <summary>
        /// Starts a session (paused at once in the background) and raises <c>session:start</c>; <paramref name="continues"/>
        /// names the session a background time-out ended when the tracker starts this one as its continuation.
        /// </summary>
        private string Begin(string campaignId, string creatorKey, object metadata, string continues)
        {
            var sessionId = RandomIds.SessionId();
            var fields = Bridge.Args("sessionId", sessionId, "userId", sdk.UserId, "campaignId", campaignId, "creatorKey", creatorKey, "metadata", metadata);
            var now = Now();
            var started = new SessionClock(fields, runId, DeviceClock.NowMs(), now, watch);
            clock = started;
            if (inBackground) Pause(started, now);
            else CheckpointEvery(0);
            var record = started.Record(now);
            Track(running.Save(record));
            sdk.Emit("session:start", Bridge.Args("sessionId", sessionId, "startedAt", DeviceClock.IsoMs(record.StartedAtMs), "continues", continues, "campaignId", campaignId, "creatorKey", creatorKey));
            return sessionId;
        }

        private void Checkpoint()
        {
            if (clock == null) return;
            Track(running.Save(clock.Record(Now())));
            // A session held in memory (its write failed) is written again: storage with room again keeps it past a crash in the
            // foreground (core/tracker/tracker.ts checkpoint; found by p47, scenario storage-returns-held-written-at-checkpoint.json).
            Track(queue.PersistHeld());
        }

        /// <summary>
        /// Checkpoints every interval, and once more as the session's play reaches the 1 s minimum when it has not yet
        /// (<paramref name="playedMs"/>): a killed app then still leaves a session, also when it started in the background
        /// or went there in its first second.
        /// </summary>
        private void CheckpointEvery(double playedMs)
        {
            lastTick = Now();
            checkpointTimer = ManagedTimers.Schedule(settings.CheckpointMs, CheckpointTick, settings.CheckpointMs);
            if (playedMs < FirstCheckpointMs) firstCheckpointTimer = ManagedTimers.Schedule(Math.Min(FirstCheckpointMs - playedMs, settings.CheckpointMs), Checkpoint);
        }

        /// <summary>
        /// The interval's checkpoint, which also checks that the game ran since the last (core/tracker/tracker.ts
        /// <c>checkpointEvery</c>): a device asleep with the game in front (a laptop's lid closed on a desktop game, the
        /// Editor's pause button) sends no pause or focus message, and Windows' clock counts the sleep, so hours asleep
        /// were play. assumed: a tick more than two intervals after the last means no frame ran since the last; that span
        /// is background time (play from the last tick on is lost, at most one interval, as in a crash), and one of
        /// <c>backgroundTimeoutMs</c> or more ends the session there (<c>background-timeout</c>), continued at once.
        /// </summary>
        private void CheckpointTick()
        {
            var now = Now();
            var asleep = now - lastTick > 2 * settings.CheckpointMs ? clock : null;
            if (asleep != null)
            {
                asleep.Pause(lastTick);
                if (now - lastTick < settings.BackgroundTimeoutMs) asleep.Resume(now);
                else
                {
                    TimeOut();
                    Continue();
                }
            }
            lastTick = now;
            Checkpoint();
            ReadChoice();
        }

        private void FlushEvery()
        {
            Cancel(flushTimer);
            flushTimer = ManagedTimers.Schedule(settings.FlushIntervalMs, () => RequestFlush(FlushTrigger.Interval), settings.FlushIntervalMs);
        }

        private static void Cancel(ManagedTimer timer)
        {
            if (timer != null) timer.Cancel();
        }

        private void StopTimers()
        {
            Cancel(checkpointTimer);
            Cancel(firstCheckpointTimer);
            Cancel(backgroundTimer);
        }

        private void OnNetworkReturned()
        {
            RequestFlush(FlushTrigger.Network);
        }

        /// <summary>Ends the running session now (at its pause, when paused) and queues it, or drops it as <paramref name="discard"/>; its record as it ended.</summary>
        private RunningRecord End(string reason, string discard)
        {
            var record = clock.Record(Now());
            var session = record.ToSession();
            clock = null;
            StopTimers();
            sdk.Emit("session:end", Bridge.Args("sessionId", record.SessionId, "reason", reason, "session", session));
            Track(Finish(session, record, discard));
            return record;
        }

        /// <summary>
        /// Queues a finished session, or drops it (under 1 s, opted out, erased); then deletes its record. When the
        /// queue write fails, the session is held in memory and its record (as it ended) is kept instead, until the
        /// session leaves the queue: a restart then recovers what this run could not send. A drop is reported at once;
        /// a <paramref name="recovered"/> one (a killed run's record) only once its record's delete succeeded: a record
        /// still there was kept only because a delete failed, and the run that dropped it reported it (core/tracker/tracker.ts
        /// <c>finish</c>).
        /// </summary>
        private async Task Finish(Dictionary<string, object> session, RunningRecord record, string discard, bool recovered = false)
        {
            await loaded;
            var sessionId = record.SessionId;
            // As core/tracker/tracker.ts finish: a session that breaks the spec's rules is dropped, too-short when under 1 s (a
            // crashed run's record read back may break others: SessionRules; RunningRecord.FromJson).
            var breaks = discard == null && !optedOut ? SessionRules.RuleBreaks(session) : null;
            var drop = discard ?? (optedOut ? "opted-out" : breaks.Count == 0 ? null : (double)session["durationSeconds"] < 1 ? "too-short" : "invalid");
            if (drop == null)
            {
                var stored = await queue.Enqueue(session, watch.Moved());
                if (queue.Count >= settings.FlushAt) RequestFlush(FlushTrigger.Threshold);
                if (!stored)
                {
                    if (queue.Has(sessionId)) await running.Save(record);
                    return;
                }
                storageFailing = false;
            }
            else if (!recovered) ReportDrop(sessionId, drop, session, breaks);
            // A recovered one's record is renamed, the game told, then the record deleted (DroppedFiles): found by p51
            // (ManagedDropPauseProbe), a start-up paused while the worker deleted the record, then killed, lost the report.
            var dropping = recovered && drop != null;
            if (await running.Remove(sessionId, dropping ? drop : null) && dropping)
            {
                ReportDrop(sessionId, drop, session, breaks);
                await running.DeleteDropped(sessionId, drop);
            }
        }

        private void ReportDrop(string sessionId, string reason, Dictionary<string, object> session, List<object> breaks)
        {
            if (reason == "too-short" && breaks.Count == 1) DroppedTooShort(sessionId, session);
            else if (reason == "too-short" || reason == "invalid") sdk.Emit("dropped", Bridge.Args("sessionId", sessionId, "reason", reason, "session", session, "error", SessionRules.Summarize(breaks), "details", breaks));
            else Dropped(sessionId, reason, session);
        }

        // ---- what the game calls --------------------------------------------------------------------------------

        /// <summary>Ends the running session and queues it (or drops it); completes once that is stored.</summary>
        internal Task Stop()
        {
            ForgetContinuation();
            if (clock != null) End("stop", null);
            return Settled();
        }

        /// <summary>Sends every queued session now (joins a flush under way); outcomes arrive as events.</summary>
        internal async Task Flush()
        {
            await ready;
            await Settled();
            if (!disposed) await flusher.Flush(FlushTrigger.Manual);
        }

        /// <summary>The player's off switch, stored per player: off ends the running session unrecorded (<c>opted-out</c>).</summary>
        internal async Task SetOptOut(bool optOut)
        {
            optedOut = optOut;
            choiceMade = true;
            if (optOut) ForgetContinuation();
            if (optOut && clock != null) End("stop", "opted-out");
            // Asked for at once, behind the file work already asked for (the ended session's) on the in-order IoQueue: a game
            // paused in this frame (the player switched off, then left) has it on disk when OnApplicationPause returns.
            // Found by p48 (managed-suspend.test.ts): written only after that work settled, a main-thread turn a paused app
            // never runs, the choice was lost with a kill there and the next launch recorded and sent the player's play.
            var stored = running.WriteOptOut(optOut);
            switchStored = stored;
            try { await stored; }
            catch (Exception error)
            {
                StorageError(error);
                throw new GameCampaignException(new ErrorInfo { Name = "StorageError", Code = "STORAGE_ERROR", Message = "The choice holds for this run but could not be stored: " + error.Message });
            }
            if (!optOut) RequestFlush(FlushTrigger.Manual);
        }

        /// <summary>Erases this player's running session and queue on this device (each <c>dropped</c>, <c>erased</c>); keeps the opt-out choice.</summary>
        internal async Task DeleteStoredData()
        {
            ForgetContinuation();
            if (clock != null) End("stop", "erased");
            await ready;
            await Settled();
            await flusher.Exclusive(Erase); // no flush sends while the queue is erased (core/tracker/tracker.ts: under the flush lock)
        }

        private async Task Erase()
        {
            // What another data path holds now (shared storage mounted since start-up) is this player's too: erased with the rest,
            // not moved in and sent by a later start-up.
            try { await AdoptOthers(); }
            catch (Exception) { /* an adoption leaves what it cannot move */ }
            foreach (var sessionId in await queue.Erase(watch.Moved())) Dropped(sessionId, "erased", null);
            try
            {
                await running.DeleteAll();
                // The files of sessions dropped but not yet deleted (DroppedFiles: a kill left them): found by p51, they stayed on
                // the device after an erasure, until some later start-up.
                foreach (var sessionId in await IoQueue.Run(() => DroppedFiles.Erase(folder))) Dropped(sessionId, "erased", null);
                // Those on another data path too (the adoption takes no dropped file in); one that path refuses is left, as the
                // adoption leaves what it cannot move.
                foreach (var other in otherFolders)
                {
                    List<string> erased;
                    try { erased = await IoQueue.Run(() => DroppedFiles.Erase(other)); }
                    catch (Exception) { continue; }
                    foreach (var sessionId in erased) Dropped(sessionId, "erased", null);
                }
            }
            catch (Exception error)
            {
                StorageError(error);
                throw new GameCampaignException(new ErrorInfo { Name = "StorageError", Code = "STORAGE_ERROR", Message = "Some stored data could not be erased: " + error.Message });
            }
        }
    }
}
#endif
