// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;

namespace GameCampaignSdk
{
    /// <summary>
    /// The write-ahead record of a running session (core/tracker/session-clock.ts <c>RunningRecord</c>): its fields,
    /// the wall clock at start, and elapsed spans rather than monotonic stamps (the monotonic origin does not survive
    /// a restart). A crashed run's record becomes a session ended at its last checkpoint.
    /// </summary>
    internal sealed class RunningRecord
    {
        /// <summary>The session's fields: sessionId, userId, campaignId?, creatorKey?, metadata?.</summary>
        internal Dictionary<string, object> Fields;
        internal double StartedAtMs;
        /// <summary>Monotonic time from start to the checkpoint (play and pauses), ms.</summary>
        internal double SpanMs;
        /// <summary>Play time at the checkpoint (background excluded), ms.</summary>
        internal double PlayedMs;
        /// <summary>The tracker run that writes it (<see cref="AliveLock"/>); null in a record written before runs had locks (recovered as a dead run's).</summary>
        internal string Owner;

        internal string SessionId { get { return Json.Str(Fields, "sessionId"); } }

        /// <summary>The fields of <see cref="Fields"/> a record read back keeps.</summary>
        private static readonly string[] SessionFieldNames = { "sessionId", "userId", "campaignId", "creatorKey", "metadata" };

        internal Dictionary<string, object> ToJson()
        {
            var json = new Dictionary<string, object>(Fields);
            json["startedAtMs"] = StartedAtMs;
            json["spanMs"] = SpanMs;
            json["playedMs"] = PlayedMs;
            if (Owner != null) json["owner"] = Owner;
            return json;
        }

        /// <summary>
        /// A record of the session <paramref name="sessionId"/> (its file's name) read back, whatever JSON its file holds. A
        /// number that is missing or not a JSON number is NaN and a field of the wrong type is kept as it is, so the session breaks the
        /// spec's rules and is dropped (<c>invalid</c>, <see cref="SessionRules"/>) once its file is deleted, as core/tracker/tracker.ts
        /// <c>finish</c> drops what <c>recoveredSession</c> makes of such a record; JSON that is no object (an array, a string, a number)
        /// has no fields, as JavaScript's spread (<c>{ ...record, sessionId }</c>, running-store.ts <c>read</c>) finds none that count.
        /// Before, it was set aside as unreadable (a <c>storage</c> error) where JavaScript reported it <c>dropped</c> (contract
        /// scenarios kill-recovered-malformed.json, kill-recovered-not-an-object.json). JSON <c>null</c> too: it was set aside (a
        /// <c>storage</c> error) where JavaScript reported it <c>dropped</c> (kill-recovered-null-or-falsy.json).
        /// </summary>
        internal static RunningRecord FromJson(object node, string sessionId)
        {
            var json = Json.Obj(node) ?? new Dictionary<string, object>();
            // The session's own fields only, as core/tracker/session-clock.ts recoveredSession takes them: what else a record
            // holds (a newer SDK's fields, a damaged file's) is not sent (contract scenario kill-recovered-newer-fields).
            var fields = new Dictionary<string, object>();
            foreach (var name in SessionFieldNames) if (json.ContainsKey(name)) fields[name] = json[name];
            fields["sessionId"] = sessionId;
            return new RunningRecord { Fields = fields, StartedAtMs = Json.Num(json, "startedAtMs") ?? double.NaN, SpanMs = Json.Num(json, "spanMs") ?? double.NaN, PlayedMs = SafeMs(Json.Num(json, "playedMs")), Owner = Json.Str(json, "owner") };
        }

        /// <summary>
        /// A stored play time: a JSON number of at most Number.MAX_SAFE_INTEGER ms, else NaN (core/tracker/session-clock.ts
        /// <c>recoveredSession</c>). Past it, 2^53 + 1 ms was sent as 9,007,199,254,740 s, a whole number the spec's rules pass
        /// (contract scenario kill-recovered-beyond-safe.json). A negative one stays too-short, as before. The start and the span
        /// need no such bound: past the calendar's range their timestamps are already no time.
        /// </summary>
        private static double SafeMs(double? value) { return value.HasValue && value.Value <= 9007199254740991.0 ? value.Value : double.NaN; }

        /// <summary>
        /// The finished session: <c>endedAt = startedAt + span</c> (never before <c>startedAt</c>, whatever the device
        /// clock did) and <c>durationSeconds = floor(played / 1000)</c>.
        /// </summary>
        internal Dictionary<string, object> ToSession()
        {
            var session = new Dictionary<string, object>(Fields);
            session["durationSeconds"] = Math.Floor(PlayedMs / 1000);
            session["startedAt"] = DeviceClock.IsoMs(StartedAtMs);
            session["endedAt"] = DeviceClock.IsoMs(StartedAtMs + SpanMs);
            return session;
        }
    }

    /// <summary>
    /// Measures the running session on the <see cref="MonotonicClock"/> (core/tracker/session-clock.ts): play time
    /// counts the foreground stretches only; the span runs to now, or to the pause while paused (a session that ends
    /// in the background ended when it went there). The start moves with the device clock as
    /// <see cref="ClockWatch"/> sees it moved, so records are in the clock's present frame.
    /// </summary>
    internal sealed class SessionClock
    {
        private readonly Dictionary<string, object> fields;
        private readonly string owner;
        private readonly double startedAtMs;
        private readonly double startMono;
        private readonly ClockWatch watch;
        private readonly double movedAtStart;
        private double playedBeforeMs;
        private double? resumedAt;
        private double? pausedAt;

        /// <param name="owner">the tracker run that records it (<see cref="AliveLock"/>).</param>
        internal SessionClock(Dictionary<string, object> fields, string owner, double startedAtMs, double startMono, ClockWatch watch)
        {
            this.fields = fields;
            this.owner = owner;
            this.startedAtMs = startedAtMs;
            this.startMono = startMono;
            this.watch = watch;
            movedAtStart = watch.Moved();
            resumedAt = startMono;
        }

        internal string SessionId { get { return Json.Str(fields, "sessionId"); } }

        /// <summary>How long it has been paused, ms (0 when running).</summary>
        internal double PausedFor(double now) { return pausedAt.HasValue ? now - pausedAt.Value : 0; }

        /// <summary>Stops counting play time; false when it was already paused.</summary>
        internal bool Pause(double now)
        {
            if (!resumedAt.HasValue) return false;
            playedBeforeMs += now - resumedAt.Value;
            resumedAt = null;
            pausedAt = now;
            return true;
        }

        /// <summary>Counts play time again.</summary>
        internal void Resume(double now)
        {
            if (!pausedAt.HasValue) return;
            pausedAt = null;
            resumedAt = now;
        }

        /// <summary>The checkpoint record at <paramref name="now"/>.</summary>
        internal RunningRecord Record(double now)
        {
            return new RunningRecord
            {
                Fields = fields,
                Owner = owner,
                StartedAtMs = startedAtMs + watch.Moved() - movedAtStart,
                SpanMs = (pausedAt ?? now) - startMono,
                PlayedMs = playedBeforeMs + (resumedAt.HasValue ? now - resumedAt.Value : 0),
            };
        }
    }
}
#endif
