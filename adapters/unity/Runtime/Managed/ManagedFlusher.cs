// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>What asked for a flush (core/tracker/flusher.ts <c>FlushTrigger</c>).</summary>
    internal enum FlushTrigger { Manual, Interval, Threshold, Background, Network, Startup, Retry }

    /// <summary>
    /// Sends one player's queue through the relay (core/tracker/flusher.ts): one drain at a time, batches of at most
    /// 1000 (the spec's bulk limit), per-item results, bisection of a batch the relay refuses for its content,
    /// backoff with full jitter from 1 s to 5 min, and <c>Retry-After</c> (up to 5 min). Every trigger waits out a
    /// <c>Retry-After</c>; the automatic ones (interval, threshold, start-up) also wait out the backoff,
    /// while a manual flush, the network returning and the background do not; the network returning skips it once until
    /// the relay answers (a connection flapping every few seconds would otherwise send one failing request per return).
    /// Nothing is sent while the device says it is offline or the player opted out.
    /// </summary>
    internal sealed class ManagedFlusher
    {
        internal const int MaxItems = 1000;
        private const double BackoffBaseMs = 1000;
        private const double BackoffMaxMs = 300000;
        /// <summary>
        /// Requests in a row that got no answer while the device said it was online before the relay is reported
        /// unreachable (core/tracker/flusher.ts <c>UNREACHABLE_AFTER</c>): one or two are a flaky network.
        /// </summary>
        internal const int UnreachableAfter = 3;

        private readonly ManagedSdk sdk;
        private readonly SessionQueue queue;
        private readonly Func<double> clockMoved;
        private readonly Func<bool> enabled;
        private readonly Action<string> setAside;
        /// <summary>Awaited before each flush sends anything: the tracker reads the player's stored choice again (another copy of the game may have switched it off).</summary>
        private readonly Func<Task> beforeFlush;
        private readonly Random jitter = new Random();
        /// <summary>Recalls the request in flight at <see cref="Dispose"/> (core/tracker/flusher.ts's <c>abort</c>).</summary>
        private readonly CancellationTokenSource abort = new CancellationTokenSource();
        private Task running;
        /// <summary>
        /// The queue writes under way when the last flush was asked for (<see cref="SessionQueue.Indexed"/>): its drain sends
        /// their sessions too, as core/tracker/queue.ts indexes a session before its write ends (found by p52: a stop just
        /// before the background flush on a full disk was not sent). Not the writes asked for later: a paused phone's
        /// background flush runs on resume, and a session the resume ends (a background time-out) is not its to send, as
        /// JavaScript's background flush, done in the background, did not send it (contract scenario background-timeout.json).
        /// </summary>
        private Task writesAsked = Task.FromResult(0);
        private bool again;
        private int attempt;
        /// <summary>The network's return skipped the backoff since the relay last answered: the next returns wait it out.</summary>
        private bool networkSkipped;
        private double backoffUntil;
        private double retryAfterUntil;
        private ManagedTimer retryTimer;
        private bool disposed;
        /// <summary>Requests in a row that got no answer while online (see <see cref="UnreachableAfter"/>).</summary>
        private int unreachable;
        /// <summary>A <c>relay</c> error was reported since the relay last answered with results: the next waits for one.</summary>
        private bool relayReported;

        internal ManagedFlusher(ManagedSdk sdk, SessionQueue queue, Func<double> clockMoved, Func<bool> enabled, Action<string> setAside, Func<Task> beforeFlush)
        {
            this.beforeFlush = beforeFlush;
            this.sdk = sdk;
            this.queue = queue;
            this.clockMoved = clockMoved;
            this.enabled = enabled;
            this.setAside = setAside;
        }

        private bool MayStart(FlushTrigger trigger)
        {
            if (disposed || !enabled() || !ManagedLifecycle.Online) return false;
            if (trigger == FlushTrigger.Retry) return true; // its timer was set for the end of the wait
            var now = MonotonicClock.NowMs();
            var waitsForBackoff = trigger == FlushTrigger.Interval || trigger == FlushTrigger.Threshold || trigger == FlushTrigger.Startup;
            if (now < retryAfterUntil) return false;
            if (now >= backoffUntil) return true;
            if (trigger != FlushTrigger.Network) return !waitsForBackoff;
            if (networkSkipped) return false;
            return networkSkipped = true;
        }

        /// <summary>Flushes now if <paramref name="trigger"/> may start one; joins the drain already running; waits for an erasure under way (<see cref="Exclusive"/>).</summary>
        internal Task Flush(FlushTrigger trigger)
        {
            if (exclusive != null) return AfterExclusive(exclusive, trigger);
            if (running != null)
            {
                writesAsked = queue.Indexed();
                again = true;
                return running;
            }
            if (!MayStart(trigger)) return Task.FromResult(0);
            writesAsked = queue.Indexed();
            var run = Run();
            if (!run.IsCompleted) running = run; // a drain that finished at once has already cleared `running`
            return run;
        }

        private async Task Run()
        {
            try
            {
                await beforeFlush(); // a choice switched off there is met before anything is sent (Drain checks enabled)
                do again = false;
                while (await Drain() && again && !disposed);
            }
            catch (Exception error)
            {
                // Nothing above is meant to throw (answers become outcomes); if something does, the sessions stay queued.
                queue.Release(queue.Oldest(int.MaxValue, new HashSet<string>()));
                sdk.Emit("error", Bridge.Args("kind", "relay", "message", error.Message));
            }
            finally
            {
                running = null;
            }
        }

        /// <summary>Completes when no drain is under way (Dispose waits for the one sending).</summary>
        internal Task Idle()
        {
            return running ?? Task.FromResult(0);
        }

        /// <summary>The work <see cref="Exclusive"/> runs; null when none.</summary>
        private Task exclusive;

        /// <summary>
        /// Runs <paramref name="work"/> (an erasure) once no drain is under way, and starts none until it is done: a flush
        /// asked for meanwhile starts after it, as core/tracker/tracker.ts deleteStoredData holds the flush lock while it
        /// erases. Found by p47 (test/adapters/unity/managed-flight.test.ts): the erasure waited only for a drain already
        /// running, so a flush the game (or a timer) started while it read the folders sent a queued session the erasure then
        /// deleted: recorded by the service and reported <c>erased</c> (then <c>flushed</c> too).
        /// </summary>
        internal async Task Exclusive(Func<Task> work)
        {
            while (running != null || exclusive != null) await (running ?? exclusive);
            var done = new TaskCompletionSource<int>();
            exclusive = done.Task;
            try { await work(); }
            finally
            {
                exclusive = null;
                done.SetResult(0);
            }
        }

        private async Task AfterExclusive(Task held, FlushTrigger trigger)
        {
            await held;
            await Flush(trigger);
        }

        /// <summary>
        /// Stops the retry timer and aborts the request in flight, as core/tracker/flusher.ts <c>dispose</c> does: a drain
        /// under way sends nothing more, and the batch of the aborted request stays queued for the next run (never taken
        /// for sent, never dropped; should the relay have recorded it, the next run's copy is answered SKIPPED).
        /// On the main thread (the abort calls UnityWebRequest.Abort).
        /// </summary>
        internal void Dispose()
        {
            disposed = true;
            if (retryTimer != null) retryTimer.Cancel();
            try { abort.Cancel(); }
            catch (AggregateException error) { UnityEngine.Debug.LogException(error); } // a Dispose does not throw at the game
        }

        /// <summary>Sends every queued session once (oldest first), until the queue is empty (true) or a failure says to wait (false).</summary>
        private async Task<bool> Drain()
        {
            var tried = new HashSet<string>();
            await queue.DeleteAnswered();
            await writesAsked;
            while (!disposed && enabled())
            {
                var oldest = queue.Oldest(MaxItems, tried);
                if (oldest.Count == 0) return true;
                foreach (var key in oldest) tried.Add(key);
                var batch = await InPresentFrame(await queue.Read(oldest, setAside));
                if (disposed)
                {
                    // Disposed while the batch was read: nothing is sent, dropped or deleted after Dispose; it stays queued.
                    queue.Release(Keys(batch));
                    return false;
                }
                foreach (var item in batch) if (item.Unsendable) await Drop(item, "invalid", UnsendableError, null);
                batch.RemoveAll(item => item.Unsendable);
                if (batch.Count > 0 && !await Send(batch)) return false;
            }
            return false;
        }

        /// <summary>
        /// How deep a session may nest: the request body <c>{"sessions":[…]}</c> holds it 2 levels down, and the relay
        /// (and <see cref="Json"/>) take 64 levels.
        /// </summary>
        private const int SessionMaxDepth = Json.MaxDepth - 2;

        /// <summary>
        /// Why a session the body cannot hold is dropped (<c>invalid</c>) instead of sent: it would fail every batch it is
        /// in, and every session behind it (core/tracker/queue.ts drops a session JSON cannot carry the same way).
        /// Only a release before <c>Tracker.Start</c>'s depth check could store one.
        /// </summary>
        private const string UnsendableError = "sessions.metadata: nested deeper than the 64 levels the relay takes";

        /// <summary>The batch in the device clock's present frame, and which sessions it cannot send, worked out off the main thread (a thousand dates to parse).</summary>
        private Task<List<QueuedSession>> InPresentFrame(List<QueuedSession> read)
        {
            var moved = clockMoved();
            var nowMs = DeviceClock.NowMs();
            return IoQueue.RunEach(read, item => // in slices, as the read: a pause's checkpoint is written between two
            {
                var present = PresentFrame(item, moved, nowMs);
                present.Unsendable = Json.NestsDeeperThan(present.Session, SessionMaxDepth);
                return present;
            });
        }

        /// <summary>
        /// A queued session in the device clock's present frame (the one <c>sentAt</c> is read in): moved as far as
        /// the clock moved since it was queued, and ending no later than now.
        /// </summary>
        private static QueuedSession PresentFrame(QueuedSession item, double moved, double nowMs)
        {
            var endedAt = DeviceClock.ParseMs(Json.Str(item.Session, "endedAt"));
            var startedAt = DeviceClock.ParseMs(Json.Str(item.Session, "startedAt"));
            if (!endedAt.HasValue || !startedAt.HasValue) return item;
            var shift = Math.Min(moved - item.Moved, nowMs - endedAt.Value);
            if (shift == 0) return item;
            var session = new Dictionary<string, object>(item.Session);
            session["startedAt"] = DeviceClock.IsoMs(startedAt.Value + shift);
            session["endedAt"] = DeviceClock.IsoMs(endedAt.Value + shift);
            return new QueuedSession { Key = item.Key, Session = session, Moved = item.Moved };
        }

        private List<string> Keys(List<QueuedSession> items)
        {
            var keys = new List<string>();
            foreach (var item in items) keys.Add(item.Key);
            return keys;
        }

        /// <summary>One request for <paramref name="batch"/>, and what its answer means.</summary>
        private async Task<bool> Send(List<QueuedSession> batch)
        {
            var sessions = new List<object>();
            foreach (var item in batch) sessions.Add(item.Session);
            var body = Bridge.Args("sessions", sessions, "isTest", sdk.IsTest ? (object)true : null, "sentAt", DeviceClock.IsoMs(DeviceClock.NowMs()));
            var json = await IoQueue.Run(() => Json.Serialize(body)); // up to 1000 sessions: not in a frame
            if (disposed)
            {
                // Disposed meanwhile (while serialized, or a bisected half's turn): no request after Dispose.
                queue.Release(Keys(batch));
                return false;
            }
            var answer = await sdk.RelayJson("POST", "/playtime/sessions", json, abort.Token);
            if (answer.Aborted)
            {
                // Dispose recalled it (core/relay/sender.ts answers an abort `transient` with no error: not counted as
                // unreachable, no backoff, no event): the batch stays queued.
                queue.Release(Keys(batch));
                return false;
            }
            if (answer.Ok)
            {
                var results = Json.Obj(answer.Data) == null ? null : Json.Field(Json.Obj(answer.Data), "results") as List<object>;
                if (results != null && results.TrueForAll(IsItemResult)) return await Settle(batch, Json.Items(Json.Obj(answer.Data), "results", PlaytimeItemResult.FromJson));
                return Transient(batch, "the relay answered with an unexpected body", answer);
            }
            var error = answer.Reached ? SpecError(answer.Body) : null;
            var code = error == null ? null : Json.Str(error, "code");
            // Only the spec's error body says the sessions are invalid: a bare {"code":"VALIDATION_ERROR"} (a proxy, a framework) is no verdict on them.
            if (error != null && (answer.Status == 400 || answer.Status == 422) && code == "VALIDATION_ERROR")
            {
                if (batch.Count > 1) return await Bisect(batch);
                var refused = HttpExchange.ErrorOf(answer);
                return await Drop(batch[0], "invalid", refused.Message, refused.Details);
            }
            if (answer.Reached && answer.Status == 413)
            {
                if (batch.Count > 1) return await Bisect(batch);
                return await Drop(batch[0], "too-large", "the relay answered 413 for this session alone", null);
            }
            if (answer.Reached && (answer.Status == 401 || answer.Status == 403))
            {
                queue.Release(Keys(batch));
                var auth = HttpExchange.ErrorOf(answer, relay: true);
                sdk.Emit("error", Bridge.Args("kind", "auth", "message", auth.Message, "code", auth.Code, "status", (double)answer.Status));
                return false;
            }
            if (!answer.Reached) return Transient(batch, answer.NetworkError, answer);
            return Transient(batch, error != null ? answer.Status + " " + code + ": " + Json.Str(error, "message") : "the relay answered " + answer.Status, answer);
        }

        /// <summary>
        /// An error answer in the spec's shape (a string <c>code</c> and <c>message</c>, <c>details</c> absent or a list),
        /// read as core/relay/sender.ts <c>classify</c> reads it; null for anything else (a proxy's page, a bare code).
        /// </summary>
        private static Dictionary<string, object> SpecError(object body)
        {
            var fields = Json.Obj(body);
            if (fields == null || Json.Str(fields, "code") == null || Json.Str(fields, "message") == null) return null;
            var details = Json.Field(fields, "details");
            return details == null || details is List<object> ? fields : null;
        }

        /// <summary>
        /// An item result as the spec shapes it, read as core/relay/sender.ts reads it: a session id and a status the
        /// tracker acts on. An answer with any other item is an unexpected body (the batch stays queued): an item without
        /// a status, or with one the spec does not define, is no acknowledgement, and deleting its session lost it.
        /// </summary>
        private static bool IsItemResult(object node)
        {
            var item = Json.Obj(node);
            var status = Json.Str(item, "status");
            return Json.Str(item, "sessionId") != null && (status == "SUCCESS" || status == "SKIPPED" || status == "FAILED");
        }

        /// <summary>Keeps the batch and backs off; a status that is not the weather (a misconfigured relay) is reported too.</summary>
        private bool Transient(List<QueuedSession> batch, string reason, HttpAnswer answer)
        {
            queue.Release(Keys(batch));
            unreachable = !answer.Reached && ManagedLifecycle.Online ? unreachable + 1 : 0;
            if (unreachable >= UnreachableAfter) RelayError(Bridge.Args("kind", "relay", "message", UnreachableMessage()));
            // As the JavaScript tracker reports it (core/tracker/flusher.ts send: an Error of the outcome's reason, and the status).
            else if (answer.Reached && !answer.Transient) RelayError(Bridge.Args("kind", "relay", "message", reason, "status", (double)answer.Status));
            // Retry-After of an error answer only (core/relay/sender.ts classify reads it there): a 2xx defines no wait (RFC 9110
            // section 10.2.3), and a captive portal's 200 page asking for minutes held even the game's own Flush back.
            BackOff(answer.Reached && !answer.Ok ? RetryAfter.Ms(answer.RetryAfter) : null);
            return false;
        }

        private async Task<bool> Bisect(List<QueuedSession> batch)
        {
            var middle = (batch.Count + 1) / 2;
            if (!await Send(batch.GetRange(0, middle)))
            {
                queue.Release(Keys(batch.GetRange(middle, batch.Count - middle)));
                return false;
            }
            return await Send(batch.GetRange(middle, batch.Count - middle));
        }

        /// <summary>A relay that cannot be reached or answers wrongly is reported once, until it answers with results again (as in JavaScript).</summary>
        private void RelayError(Dictionary<string, object> error)
        {
            if (!relayReported) sdk.Emit("error", error);
            relayReported = true;
        }

        private string UnreachableMessage()
        {
            return "The relay at " + sdk.RelayUrl + " could not be reached " + UnreachableAfter + " times in a row while the device is online. Likely causes: "
                + "cleartext http:// refused (Android 9+ and iOS by default: a development relay at http://10.0.2.2:... needs the app to allow it), "
                + "a blocked host (a firewall, a proxy), or a wrong relay URL. The sessions stay queued.";
        }

        /// <summary>SUCCESS and SKIPPED leave the queue (<c>flushed</c>); FAILED is dropped (<c>rejected</c>); unanswered items stay.</summary>
        private async Task<bool> Settle(List<QueuedSession> batch, List<PlaytimeItemResult> results)
        {
            ResetBackoff();
            unreachable = 0;
            relayReported = false;
            // The first answer for each sessionId, given to every item of that id (core/tracker/flusher.ts settle): two stored
            // copies of one session (two copies of the game on the player's folder) both leave the queue on its one answer,
            // and flushed tells it once. Before, the last copy took the answer and the other stayed, sent again at the next
            // flush and told flushed a second time (found by p27, ManagedParityProbe TwoCopiesOfOneSession).
            var answers = new Dictionary<string, PlaytimeItemResult>(StringComparer.Ordinal);
            foreach (var result in results ?? new List<PlaytimeItemResult>())
            {
                if (result != null && result.SessionId != null && !answers.ContainsKey(result.SessionId)) answers[result.SessionId] = result;
            }
            var unanswered = new List<QueuedSession>();
            var acknowledged = new List<KeyValuePair<string, PlaytimeItemResult>>();
            var failed = new List<KeyValuePair<QueuedSession, string>>();
            foreach (var item in batch)
            {
                PlaytimeItemResult result;
                if (!answers.TryGetValue(Json.Str(item.Session, "sessionId") ?? "", out result)) unanswered.Add(item);
                else if (result.Status == "FAILED") failed.Add(new KeyValuePair<QueuedSession, string>(item, result.Error ?? "FAILED"));
                else acknowledged.Add(new KeyValuePair<string, PlaytimeItemResult>(item.Key, result));
            }
            var keys = new List<string>();
            foreach (var pair in acknowledged) keys.Add(pair.Key);
            var removed = await queue.Remove(keys, true);
            var flushed = new List<object>();
            var told = new HashSet<PlaytimeItemResult>();
            foreach (var pair in acknowledged) if (removed.Contains(pair.Key) && told.Add(pair.Value)) flushed.Add(Bridge.Args("sessionId", pair.Value.SessionId, "status", pair.Value.Status));
            if (flushed.Count > 0) sdk.Emit("flushed", Bridge.Args("results", flushed));
            foreach (var pair in failed) await Drop(pair.Key, "rejected", pair.Value, null);
            if (unanswered.Count == 0) return true;
            // assumed, as in JavaScript: a relay that leaves items out of its answer failed transiently for those.
            queue.Release(Keys(unanswered));
            sdk.Emit("error", Bridge.Args("kind", "relay", "message", "The relay answered " + (batch.Count - unanswered.Count) + " of " + batch.Count + " sessions"));
            BackOff(null);
            return false;
        }

        private async Task<bool> Drop(QueuedSession item, string reason, string error, IList<ErrorDetail> details)
        {
            // Renamed, the game told, then deleted (DroppedFiles): found by p51 (managed-suspend.test.ts), a delete the worker
            // ran before a pause-and-kill, with the report for a main-thread step the paused app never ran, lost both.
            if ((await queue.Remove(new List<string> { item.Key }, true, reason)).Contains(item.Key))
            {
                var detailJson = details == null || details.Count == 0 ? null : Json.Write(new List<ErrorDetail>(details), detail => detail.ToJson());
                sdk.Emit("dropped", Bridge.Args("sessionId", Json.Str(item.Session, "sessionId"), "reason", reason, "session", item.Session, "error", error, "details", detailJson));
                await queue.DeleteDropped(item.Key, reason);
            }
            return true;
        }

        /// <summary>
        /// Waits before the next automatic flush: a random point in [0, min(5 min, 1 s x 2^attempt)) (full jitter), or
        /// the relay's <c>Retry-After</c> when longer (at most 5 min), then flushes again on its own.
        /// </summary>
        private void BackOff(double? requestedMs)
        {
            if (disposed) return;
            double? retryAfterMs = requestedMs.HasValue ? Math.Min(requestedMs.Value, BackoffMaxMs) : (double?)null;
            var ceiling = Math.Min(BackoffMaxMs, BackoffBaseMs * Math.Pow(2, Math.Min(attempt++, 30)));
            var delay = Math.Max(retryAfterMs ?? 0, Math.Floor(jitter.NextDouble() * ceiling));
            var now = MonotonicClock.NowMs();
            backoffUntil = now + delay;
            if (retryAfterMs.HasValue) retryAfterUntil = now + retryAfterMs.Value;
            if (retryTimer != null) retryTimer.Cancel();
            retryTimer = ManagedTimers.Schedule(delay, () => Flush(FlushTrigger.Retry));
        }

        private void ResetBackoff()
        {
            attempt = 0;
            networkSkipped = false;
            backoffUntil = retryAfterUntil = 0;
            if (retryTimer != null) retryTimer.Cancel();
        }
    }
}
#endif

