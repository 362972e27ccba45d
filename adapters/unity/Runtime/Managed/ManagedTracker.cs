// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>
    /// The playtime tracker outside WebGL (the Editor's Play mode, desktop and mobile players): the semantics of
    /// core/tracker in C#. A session is measured on the device's clock, stored in the player's <see cref="SessionQueue"/>
    /// when it ends, and sent through the relay (<c>POST {relay}/playtime/sessions</c>, with <c>sentAt</c>); it leaves
    /// the queue only when the relay answered for it, so each session reaches the service once (a resend after a crash
    /// is answered SKIPPED by the service, which de-duplicates by sessionId). Flushes run one at a time: after
    /// <c>Stop</c>, at <c>Init</c> (what an earlier run left) and on <c>Flush</c>.
    /// Each outcome is one event, as in JavaScript: <c>flushed</c> (SUCCESS/SKIPPED), <c>dropped</c> (too-short,
    /// invalid, rejected, overflow, too-large) or <c>error</c> (auth, relay; the sessions stay queued).
    /// assumed: no background time-out and no checkpoints of the running session (Play mode has no page to hide);
    /// the running session ends when Play mode or the player quits (<c>Application.quitting</c>) and is stored then.
    /// </summary>
    internal sealed class ManagedTracker
    {
        /// <summary>At most this many sessions per relay request (the JavaScript tracker's batch).</summary>
        private const int BatchSize = 100;

        private readonly ManagedSdk sdk;
        private readonly SessionQueue queue;
        private Dictionary<string, object> running;
        private DateTime runningSince;
        private Task flushing = Task.FromResult(0);

        internal ManagedTracker(ManagedSdk sdk)
        {
            this.sdk = sdk;
            queue = new SessionQueue(sdk.UserId);
        }

        internal SessionQueue Queue { get { return queue; } }

        internal string Start(Dictionary<string, object> args)
        {
            if (running != null) End("restart");
            runningSince = DeviceClock.UtcNow();
            var sessionId = RandomIds.SessionId();
            running = Bridge.Args(
                "sessionId", sessionId,
                "userId", sdk.UserId,
                "campaignId", Json.Str(args, "campaignId") ?? sdk.CampaignId,
                "creatorKey", Json.Str(args, "creatorKey") ?? sdk.CreatorKey,
                "metadata", Json.Field(args, "metadata"));
            sdk.Emit("session:start", Bridge.Args("sessionId", sessionId, "startedAt", DeviceClock.Iso(runningSince), "campaignId", running.ContainsKey("campaignId") ? running["campaignId"] : null, "creatorKey", running.ContainsKey("creatorKey") ? running["creatorKey"] : null));
            return sessionId;
        }

        /// <summary>Ends the running session (if any), stores it and starts sending it.</summary>
        internal Task Stop()
        {
            if (running == null) return Task.FromResult(0);
            End("stop");
            KeepSending();
            return Task.FromResult(0);
        }

        /// <summary>Ends the running session without sending now (dispose, quitting): it is sent by the next run.</summary>
        internal void EndRunning(string reason)
        {
            if (running != null) End(reason);
        }

        /// <summary>Sends every queued session; completes when the relay answered (or could not be reached).</summary>
        internal Task Flush()
        {
            flushing = After(flushing);
            return flushing;
        }

        /// <summary>A flush whose failure is already reported by events (never thrown at the game).</summary>
        internal async void KeepSending()
        {
            try { await Flush(); }
            catch (Exception error) { UnityEngine.Debug.LogException(error); }
        }

        private async Task After(Task previous)
        {
            try { await previous; }
            catch (Exception) { /* reported when it ran */ }
            var sessions = queue.Load();
            for (var i = 0; i < sessions.Count; i += BatchSize) await Send(sessions.GetRange(i, Math.Min(BatchSize, sessions.Count - i)));
        }

        private void End(string reason)
        {
            var session = running;
            running = null;
            var endedAt = DeviceClock.UtcNow();
            if (endedAt < runningSince) endedAt = runningSince; // a clock set back during play
            session["startedAt"] = DeviceClock.Iso(runningSince);
            session["endedAt"] = DeviceClock.Iso(endedAt);
            session["durationSeconds"] = (double)Math.Floor((endedAt - runningSince).TotalSeconds);
            var sessionId = (string)session["sessionId"];
            sdk.Emit("session:end", Bridge.Args("sessionId", sessionId, "reason", reason, "session", session));
            if ((double)session["durationSeconds"] < 1)
            {
                Drop(session, "too-short", "durationSeconds must be at least 1", null);
                return;
            }
            foreach (var pushedOut in queue.Add(session)) Drop(pushedOut, "overflow", "the queue held " + SessionQueue.MaxSessions + " sessions", null);
        }

        /// <summary>One relay request for <paramref name="batch"/>; a batch the relay refuses as a whole is halved until the bad session is alone.</summary>
        private async Task Send(List<Dictionary<string, object>> batch)
        {
            var body = Bridge.Args("sessions", batch, "isTest", sdk.IsTest ? (object)true : null, "sentAt", DeviceClock.Iso(DeviceClock.UtcNow()));
            var answer = await sdk.Relay("POST", "/playtime/sessions", body);
            if (answer.Ok)
            {
                Acknowledge(batch, Json.Items(Json.Obj(answer.Data), "results", PlaytimeItemResult.FromJson));
                return;
            }
            if (answer.Transient) return; // kept for the next flush
            if (answer.Status == 401 || answer.Status == 403)
            {
                var auth = HttpExchange.ErrorOf(answer, relay: true);
                sdk.Emit("error", Bridge.Args("kind", "auth", "message", auth.Message, "code", auth.Code, "status", (double)answer.Status));
                return;
            }
            if (answer.Status == 400 || answer.Status == 413)
            {
                if (batch.Count > 1)
                {
                    var half = batch.Count / 2;
                    await Send(batch.GetRange(0, half));
                    await Send(batch.GetRange(half, batch.Count - half));
                    return;
                }
                var refused = HttpExchange.ErrorOf(answer);
                queue.Remove(new[] { Json.Str(batch[0], "sessionId") });
                Drop(batch[0], answer.Status == 413 ? "too-large" : "invalid", refused.Message, refused.Details);
                return;
            }
            var unexpected = HttpExchange.ErrorOf(answer, relay: true);
            sdk.Emit("error", Bridge.Args("kind", "relay", "message", unexpected.Message, "code", unexpected.Code, "status", (double)answer.Status));
        }

        private void Acknowledge(List<Dictionary<string, object>> batch, List<PlaytimeItemResult> results)
        {
            var sent = new HashSet<string>();
            foreach (var session in batch) sent.Add(Json.Str(session, "sessionId"));
            var acknowledged = new List<object>();
            var answered = new List<string>();
            foreach (var result in results ?? new List<PlaytimeItemResult>())
            {
                if (result == null || !sent.Contains(result.SessionId)) continue;
                answered.Add(result.SessionId);
                if (result.Status == "FAILED")
                {
                    queue.Remove(new[] { result.SessionId });
                    Drop(batch.Find(session => Json.Str(session, "sessionId") == result.SessionId), "rejected", result.Error ?? "FAILED", null);
                }
                else acknowledged.Add(Bridge.Args("sessionId", result.SessionId, "status", result.Status));
            }
            queue.Remove(answered);
            if (acknowledged.Count > 0) sdk.Emit("flushed", Bridge.Args("results", acknowledged));
        }

        private void Drop(Dictionary<string, object> session, string reason, string error, IList<ErrorDetail> details)
        {
            var detailJson = details == null || details.Count == 0 ? null : Json.Write(new List<ErrorDetail>(details), detail => detail.ToJson());
            sdk.Emit("dropped", Bridge.Args("sessionId", Json.Str(session, "sessionId"), "reason", reason, "session", session, "error", error, "details", detailJson));
        }
    }
}
#endif
