// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;

namespace GameCampaignSdk
{
    /// <summary>
    /// The tracker's timing and limits, from <c>Init</c>'s <c>tracker</c> options (the JavaScript names:
    /// core/tracker/options.ts), with JavaScript's defaults: checkpoint 15 s, background time-out 60 s, flush
    /// interval 30 s, flushAt 100, maxQueue 10,000.
    /// </summary>
    internal sealed class TrackerSettings
    {
        internal double CheckpointMs = 15000;
        internal double BackgroundTimeoutMs = 60000;
        internal double FlushIntervalMs = 30000;
        internal int FlushAt = 100;
        internal int MaxQueue = 10000;
        /// <summary>Opted out when the player has no stored choice.</summary>
        internal bool OptOut;

        /// <summary>
        /// The settings in <paramref name="tracker"/>, checked as core/tracker/options.ts <c>resolveTrackerOptions</c> checks
        /// them (<see cref="RuleTables.InitOptions"/>, generated from core/schema): an interval or time-out a whole number of ms
        /// from 1 to <see cref="Rules.MaxTimerMs"/>, a count a safe integer of at least 1, the session defaults; whatever breaks
        /// one is a VALIDATION_ERROR with every detail (<c>options.flushAt</c>, ...), as JavaScript throws it. Before (found by
        /// p41), a count over 2^31 - 1 was refused with the timers' message under <c>tracker.</c>, one field at a time.
        /// assumed: a count beyond what an <c>int</c> holds is taken as <see cref="int.MaxValue"/> (no queue on a device
        /// reaches 2^31 - 1 sessions: the same as JavaScript's larger limit).
        /// </summary>
        internal static TrackerSettings From(Dictionary<string, object> tracker)
        {
            CheckSessionFields(RuleTables.InitOptions, tracker, "options");
            var settings = new TrackerSettings();
            settings.CheckpointMs = Json.Num(tracker, "checkpointMs") ?? settings.CheckpointMs;
            settings.BackgroundTimeoutMs = Json.Num(tracker, "backgroundTimeoutMs") ?? settings.BackgroundTimeoutMs;
            settings.FlushIntervalMs = Json.Num(tracker, "flushIntervalMs") ?? settings.FlushIntervalMs;
            settings.FlushAt = Count(tracker, "flushAt", settings.FlushAt);
            settings.MaxQueue = Count(tracker, "maxQueue", settings.MaxQueue);
            settings.OptOut = Json.Bool(tracker, "optOut") == true;
            return settings;
        }

        /// <summary>
        /// Refuses a session's fields that break <paramref name="rules"/> (generated from core/schema: <see cref="RuleTables"/>),
        /// as core/tracker/options.ts does, at <c>Init</c> (defaults, <paramref name="prefix"/> <c>options</c>) and at
        /// <c>Start</c> (<c>start</c>): a bad one is a programming error, thrown at once (VALIDATION_ERROR with the
        /// details), not a session played and then refused by the relay.
        /// </summary>
        internal static void CheckSessionFields(FieldRule[] rules, Dictionary<string, object> fields, string prefix)
        {
            var details = FieldRules.Check(rules, fields, prefix);
            if (details.Count > 0) throw GameCampaignException.Invalid(details);
        }

        /// <summary>A count the rules passed (a whole number of at least 1), as an <c>int</c>; the default when it is not given.</summary>
        private static int Count(Dictionary<string, object> tracker, string key, int fallback)
        {
            var value = Json.Num(tracker, key);
            return value.HasValue ? (int)Math.Min(value.Value, int.MaxValue) : fallback;
        }
    }
}
#endif
