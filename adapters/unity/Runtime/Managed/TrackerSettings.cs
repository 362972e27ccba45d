// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
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

        /// <summary>The settings in <paramref name="tracker"/>; a value that is not a positive whole number is a VALIDATION_ERROR.</summary>
        internal static TrackerSettings From(Dictionary<string, object> tracker)
        {
            var settings = new TrackerSettings();
            settings.CheckpointMs = Positive(tracker, "checkpointMs", settings.CheckpointMs);
            settings.BackgroundTimeoutMs = Positive(tracker, "backgroundTimeoutMs", settings.BackgroundTimeoutMs);
            settings.FlushIntervalMs = Positive(tracker, "flushIntervalMs", settings.FlushIntervalMs);
            settings.FlushAt = (int)Positive(tracker, "flushAt", settings.FlushAt);
            settings.MaxQueue = (int)Positive(tracker, "maxQueue", settings.MaxQueue);
            settings.OptOut = Json.Bool(tracker, "optOut") == true;
            CheckSessionFields(RuleTables.InitSessionFields, tracker, "options");
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

        private static double Positive(Dictionary<string, object> tracker, string key, double fallback)
        {
            if (Json.Field(tracker, key) == null) return fallback;
            var value = Json.Num(tracker, key);
            if (!value.HasValue || value.Value < 1 || value.Value > int.MaxValue || value.Value != System.Math.Floor(value.Value))
            {
                throw new GameCampaignException(new ErrorInfo { Name = "ValidationError", Code = "VALIDATION_ERROR", Message = "tracker." + key + " " + Rules.TimerMsMessage });
            }
            return value.Value;
        }
    }
}
#endif
