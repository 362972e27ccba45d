// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;

namespace GameCampaignSdk
{
    /// <summary>
    /// Per-player expiry (core/tracker/housekeeping.ts <c>expireOtherPlayers</c>): other players' sessions older
    /// than the relay's default maximum session age would be refused by the relay; they are deleted by whichever
    /// player's tracker starts, and reported. Runs on <see cref="IoQueue"/>.
    /// </summary>
    internal static class TrackerHousekeeping
    {
        /// <summary>
        /// Deletes other players' queued sessions (oldest first, until one is young enough) and running records that
        /// started before <paramref name="oldestMs"/> (device clock); returns them. Damaged files are set aside. A delete
        /// that fails is added to <paramref name="refused"/>: a storage failure, which the tracker reports as JavaScript's
        /// housekeeping does (core/tracker/housekeeping.ts: the failed delete rejects, and the tracker reports it).
        /// Each comes with its reason: <c>expired</c>, or <c>invalid</c> for one with no <c>startedAt</c> to age it by (a damaged
        /// record: <c>startedAtMs</c> missing or no number), which would wait for its player forever; deleted at once, as its
        /// player's own start-up drops it (contract scenario expiry-other-player-no-start.json).
        /// </summary>
        internal static List<KeyValuePair<string, Dictionary<string, object>>> Expire(PlayerFolder own, double oldestMs, List<string> setAside, List<Exception> refused)
        {
            var expired = new List<KeyValuePair<string, Dictionary<string, object>>>();
            foreach (var player in own.Others())
            {
                TrackerFiles.SweepTemporary(player);
                foreach (var name in TrackerFiles.JsonFiles(player.QueueDir))
                {
                    var path = Path.Combine(player.QueueDir, name);
                    var session = TrackerFiles.Read(path, Json.Obj, setAside);
                    if (session == null) continue;
                    var reason = Judge(session, oldestMs);
                    if (reason == null) break; // the rest of this queue is younger still
                    if (Deleted(path, refused)) expired.Add(new KeyValuePair<string, Dictionary<string, object>>(reason, session)); // one whose delete fails (a full disk) is kept, not dropped: the next start-up tries again
                }
                foreach (var record in RunningStore.ReadAll(player, setAside))
                {
                    var session = record.ToSession();
                    var reason = Judge(session, oldestMs);
                    if (reason != null && Deleted(Path.Combine(player.RunningDir, record.SessionId + ".json"), refused)) expired.Add(new KeyValuePair<string, Dictionary<string, object>>(reason, session));
                }
            }
            return expired;
        }

        private static bool Deleted(string path, List<Exception> refused)
        {
            try
            {
                TrackerFiles.Delete(path);
                return true;
            }
            catch (Exception error)
            {
                refused.Add(error);
                return false;
            }
        }

        /// <summary>
        /// Why a session goes: <c>expired</c> (started before <paramref name="oldestMs"/>), <c>invalid</c> (no start to age it by), or
        /// null: it stays. assumed: as JavaScript's housekeeping, a start at exactly 1970-01-01T00:00:00.000Z (0, falsy there) is invalid.
        /// </summary>
        private static string Judge(Dictionary<string, object> session, double oldestMs)
        {
            var startedAt = DeviceClock.ParseMs(Json.Str(session, "startedAt"));
            if (!startedAt.HasValue || startedAt.Value == 0) return "invalid";
            return startedAt.Value < oldestMs ? "expired" : null;
        }
    }
}
#endif
