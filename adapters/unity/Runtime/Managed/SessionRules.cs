// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System.Collections.Generic;

namespace GameCampaignSdk
{
    /// <summary>
    /// The spec's rules of a playtime session (core/schema/playtime-rules.ts <c>checkPlaytimeItem</c>): what a finished
    /// session breaks, as JavaScript's tracker details it before queueing, from the same generated rule table
    /// (<see cref="RuleTables.Session"/>). A live session keeps them (its fields were checked at <c>Start</c>); a crashed
    /// run's record read back may not.
    /// </summary>
    internal static class SessionRules
    {
        /// <summary>The rules <paramref name="session"/> breaks, as details (<c>path</c>, <c>message</c>); empty when none.</summary>
        internal static List<object> RuleBreaks(Dictionary<string, object> session)
        {
            var details = new List<object>();
            foreach (var detail in FieldRules.Check(RuleTables.Session, session, null)) details.Add(detail.ToJson());
            // The spec's cross-field rule (endsBeforeStart), judged only when both are timestamps (they compare as strings in time order).
            var startedAt = Json.Str(session, "startedAt");
            var endedAt = Json.Str(session, "endedAt");
            if (startedAt != null && endedAt != null && DeviceClock.IsIsoMillis(startedAt) && DeviceClock.IsIsoMillis(endedAt) && string.CompareOrdinal(endedAt, startedAt) < 0)
            {
                details.Add(Bridge.Args("path", Rules.EndBeforeStartPath, "message", Rules.EndBeforeStartMessage));
            }
            return details;
        }

        /// <summary><c>path message; path message</c> (core/http/request-validation.ts <c>summarize</c>).</summary>
        internal static string Summarize(List<object> details)
        {
            var parts = new List<string>();
            foreach (var detail in details) parts.Add(Json.Str(Json.Obj(detail), "path") + " " + Json.Str(Json.Obj(detail), "message"));
            return string.Join("; ", parts.ToArray());
        }
    }
}
#endif
