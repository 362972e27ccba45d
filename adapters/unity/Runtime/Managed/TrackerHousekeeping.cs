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
        /// <summary>Other players' files to judge (<see cref="ListOthers"/>), and what judging them found, on the file worker.</summary>
        internal sealed class Expiry
        {
            internal readonly double OldestMs;
            /// <summary>The tracker run judging: its drops are marked with it (<see cref="DroppedFiles.MarkedPath"/>).</summary>
            internal readonly string Run;
            /// <summary>The player of each folder whose dropped files are listed (whose runs' locks say who tells them: <see cref="DroppedFiles.Claim"/>).</summary>
            internal readonly Dictionary<string, PlayerFolder> Players = new Dictionary<string, PlayerFolder>(StringComparer.Ordinal);
            /// <summary>Folder, name, and "running" for a running record: dropped files first, then each player's queue oldest first and its records.</summary>
            internal readonly List<string[]> Files = new List<string[]>();
            internal readonly List<string> SetAside = new List<string>();
            internal readonly List<Exception> Refused = new List<Exception>();
            /// <summary>The queue folders where a session young enough was found.</summary>
            internal readonly HashSet<string> Young = new HashSet<string>(StringComparer.Ordinal);

            internal Expiry(double oldestMs, string run)
            {
                OldestMs = oldestMs;
                Run = run;
            }
        }

        /// <summary>
        /// Lists other players' queued sessions (oldest first, until one is young enough) and running records, to delete the
        /// ones that started before <c>oldestMs</c> (device clock). Damaged files are set aside. A delete that fails is added to
        /// <see cref="Expiry.Refused"/>: a storage failure, which the tracker reports as JavaScript's housekeeping does
        /// (core/tracker/housekeeping.ts: the failed delete rejects, and the tracker reports it). Each comes with its
        /// reason: <c>expired</c>, or <c>invalid</c> for one with no <c>startedAt</c> to age it by (a damaged record:
        /// <c>startedAtMs</c> missing or no number), which would wait for its player forever; deleted at once, as its
        /// player's own start-up drops it (contract scenario expiry-other-player-no-start.json). Listed here (the
        /// leftovers of cut-short writes swept), then judged a file at a time (<see cref="JudgeOne"/>), each drop told to the
        /// game, then deleted (<see cref="DroppedFiles.DeleteTold"/>); the tracker runs both in slices of file jobs (<see cref="IoQueue.RunEach"/>): found by p49 (managed-suspend.test.ts), another player's
        /// 400 expired sessions judged in one file job held a pause's checkpoint past its 1 s wait.
        /// </summary>
        internal static Expiry ListOthers(PlayerFolder own, double oldestMs, string run = null)
        {
            var expiry = new Expiry(oldestMs, run);
            // What a kill left dropped and untold first (its own too: dropped by its run, or judged by another player's start-up):
            // decided before anything judged now, told before it, as the run the kill cut short would have told it.
            ListDropped(expiry, own);
            foreach (var player in own.Others())
            {
                TrackerFiles.SweepTemporary(player);
                ListDropped(expiry, player);
                var queued = new HashSet<string>(StringComparer.Ordinal);
                foreach (var name in TrackerFiles.JsonFiles(player.QueueDir))
                {
                    expiry.Files.Add(new[] { player.QueueDir, name });
                    var sessionId = SessionQueue.SessionIdIn(name.Substring(0, name.Length - ".json".Length));
                    if (sessionId != null) queued.Add(sessionId);
                }
                // A record whose session is queued too (its run stopped it as the app paused, and the OS killed it before the
                // record's delete, which waits for a main-thread step): its queued copy stands for it, and the record goes
                // untold, as its player's own start-up deletes it (found by p51, contract scenario
                // overflow-stop-and-leave-killed-expired-by-another.json: the session was told expired twice).
                foreach (var name in TrackerFiles.JsonFiles(player.RunningDir))
                    expiry.Files.Add(queued.Contains(name.Substring(0, name.Length - ".json".Length)) ? new[] { player.RunningDir, name, "running", "queued" } : new[] { player.RunningDir, name, "running" });
            }
            return expiry;
        }

        /// <summary>Adds <paramref name="player"/>'s dropped files (<see cref="DroppedFiles"/>) a kill left before the game was told.</summary>
        private static void ListDropped(Expiry expiry, PlayerFolder player)
        {
            expiry.Players[player.QueueDir] = player;
            expiry.Players[player.RunningDir] = player;
            foreach (var name in DroppedFiles.In(player.QueueDir)) expiry.Files.Add(new[] { player.QueueDir, name, "queued", "dropped" });
            foreach (var name in DroppedFiles.In(player.RunningDir)) expiry.Files.Add(new[] { player.RunningDir, name, "running", "dropped" });
        }

        /// <summary>A session judged to go: why, the session, and its file (deleted once the game was told: <see cref="DroppedFiles.DeleteTold"/>).</summary>
        internal sealed class Drop
        {
            internal string Reason;
            internal Dictionary<string, object> Session;
            internal string Path;
        }

        /// <summary>
        /// Judges one listed file (folder, name, "running" for a running record, "dropped" for one judged to go before, "queued"
        /// for a record whose session is queued too, deleted untold): a
        /// <see cref="Drop"/> when it goes, else null. One that goes is not deleted here but renamed (<see cref="DroppedFiles.Mark"/>),
        /// which fails as its delete would: the game is told of it first, then it is deleted, and a start-up killed between
        /// leaves it for the next, which tells the game again (found by p50, managed-suspend.test.ts: the files the slices
        /// before a kill deleted were gone and never reported, the report coming after the whole expiry).
        /// </summary>
        internal static Drop JudgeOne(Expiry expiry, string[] file)
        {
            var path = Path.Combine(file[0], file[1]);
            if (file.Length > 3 && file[3] == "queued")
            {
                TrackerFiles.TryDelete(path); // one that stays is deleted by the next start-up
                return null;
            }
            var judgedBefore = file.Length > 3;
            Dictionary<string, object> session;
            if (file.Length > 2 && file[2] == "running")
            {
                var sessionId = file[1].Substring(0, DroppedFiles.JsonAt(file[1]));
                var record = TrackerFiles.Read(path, node => RunningRecord.FromJson(node, sessionId), expiry.SetAside);
                if (record == null) return null;
                session = record.ToSession();
            }
            else
            {
                if (!judgedBefore && expiry.Young.Contains(file[0])) return null; // the rest of this queue is younger still
                session = TrackerFiles.Read(path, Json.Obj, expiry.SetAside);
                if (session == null) return null;
            }
            var reason = Judge(session, expiry.OldestMs);
            if (judgedBefore)
            {
                // As judged then (its name says why; p50's names did not: judged again, expired if a clock moved back since),
                // told by this run only once it took the file (another copy of the game may be telling it).
                var why = DroppedFiles.ReasonOf(file[1]) ?? reason ?? "expired";
                var taken = DroppedFiles.Claim(expiry.Players[file[0]], file[0], file[1], why, expiry.Run);
                return taken == null ? null : new Drop { Reason = why, Session = session, Path = taken };
            }
            if (reason == null)
            {
                if (file.Length == 2) expiry.Young.Add(file[0]);
                return null;
            }
            // One whose rename fails (a read-only folder) is kept, not dropped: the next start-up tries again.
            string marked;
            try { marked = DroppedFiles.Mark(path, reason, expiry.Run); }
            catch (Exception error)
            {
                expiry.Refused.Add(error);
                return null;
            }
            return marked == null ? null : new Drop { Reason = reason, Session = session, Path = marked };
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
