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
        /// </summary>
        internal static List<Dictionary<string, object>> Expire(PlayerFolder own, double oldestMs, List<string> setAside, List<Exception> refused)
        {
            var expired = new List<Dictionary<string, object>>();
            foreach (var player in own.Others())
            {
                TrackerFiles.SweepTemporary(player);
                foreach (var name in TrackerFiles.JsonFiles(player.QueueDir))
                {
                    var path = Path.Combine(player.QueueDir, name);
                    var session = TrackerFiles.Read(path, Json.Obj, setAside);
                    if (session == null) continue;
                    if (!IsOld(session, oldestMs)) break; // the rest of this queue is younger still
                    if (Deleted(path, refused)) expired.Add(session); // one whose delete fails (a full disk) is kept, not dropped: the next start-up tries again
                }
                foreach (var record in RunningStore.ReadAll(player, setAside))
                {
                    var session = record.ToSession();
                    if (IsOld(session, oldestMs) && Deleted(Path.Combine(player.RunningDir, record.SessionId + ".json"), refused)) expired.Add(session);
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

        private static bool IsOld(Dictionary<string, object> session, double oldestMs)
        {
            var startedAt = DeviceClock.ParseMs(Json.Str(session, "startedAt"));
            return startedAt.HasValue && startedAt.Value < oldestMs;
        }
    }
}
#endif
