// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>
    /// The write-ahead records of running sessions (core/tracker/running-store.ts), a file each in the player's
    /// <c>running/</c> folder, and the player's opt-out choice. Written when a session starts, at each checkpoint
    /// and on going to the background; deleted once the session is queued or dropped. What a killed process left
    /// here is recovered by the next start-up.
    /// </summary>
    internal sealed class RunningStore
    {
        private readonly PlayerFolder folder;
        private readonly Action<Exception> storageError;
        /// <summary>The tracker run whose drops this store marks (<see cref="DroppedFiles.MarkedPath"/>).</summary>
        private readonly string run;

        internal RunningStore(PlayerFolder folder, Action<Exception> storageError, string run = null)
        {
            this.folder = folder;
            this.storageError = storageError;
            this.run = run;
        }

        private string PathOf(string sessionId) { return Path.Combine(folder.RunningDir, sessionId + ".json"); }

        /// <summary>Writes a record (failures reported, not thrown: the session still runs).</summary>
        internal async Task Save(RunningRecord record)
        {
            var path = PathOf(record.SessionId);
            var json = record.ToJson();
            try { await IoQueue.Run(() => TrackerFiles.Write(path, json)); }
            catch (Exception error) { storageError(error); }
        }

        /// <summary>Deletes a record (failures reported, not thrown); true once deleted (core/tracker/running-store.ts <c>remove</c>).</summary>
        /// <param name="dropReason">
        /// Given for a recovered session dropped: its record is renamed (<see cref="DroppedFiles.Mark"/>), not deleted, and
        /// <see cref="DeleteDropped"/> deletes it once the game was told.
        /// </param>
        internal async Task<bool> Remove(string sessionId, string dropReason = null)
        {
            var path = PathOf(sessionId);
            try
            {
                await IoQueue.Run(() =>
                {
                    if (dropReason == null) TrackerFiles.Delete(path);
                    else DroppedFiles.Mark(path, dropReason, run);
                });
            }
            catch (Exception error)
            {
                storageError(error);
                return false;
            }
            return true;
        }

        /// <summary>Deletes the record <see cref="Remove"/> renamed for <paramref name="reason"/>, once the game was told (a failed delete: told again at the next start-up).</summary>
        internal Task DeleteDropped(string sessionId, string reason)
        {
            var marked = DroppedFiles.MarkedPath(PathOf(sessionId), reason, run);
            return IoQueue.Run(() => DroppedFiles.DeleteTold(marked));
        }

        /// <summary>
        /// Every record of <paramref name="player"/>; damaged files are set aside and named in <paramref name="setAside"/>. A
        /// record's session is the one its file names (<c>{sessionId}.json</c>), as core/tracker/running-store.ts <c>read</c>
        /// takes it from the key: before, the <c>sessionId</c> field was taken, and a record whose field named another session
        /// (copied or edited by hand, damaged) was sent under that id and its file never deleted (sent again at every start-up).
        /// </summary>
        internal static List<RunningRecord> ReadAll(PlayerFolder player, List<string> setAside)
        {
            var records = new List<RunningRecord>();
            foreach (var name in TrackerFiles.JsonFiles(player.RunningDir))
            {
                var sessionId = name.Substring(0, name.Length - ".json".Length);
                var record = TrackerFiles.Read(Path.Combine(player.RunningDir, name), node => RunningRecord.FromJson(node, sessionId), setAside);
                if (record != null) records.Add(record);
            }
            return records;
        }

        /// <summary>
        /// The records of <paramref name="records"/> whose files <paramref name="player"/> still holds, listed once (none
        /// listed when there are none to look for): what a start-up recovers, after it has claimed their runs
        /// (<see cref="AliveLock.OfGoneRuns"/>), as core/tracker/housekeeping.ts <c>recoverCrashedSessions</c> reads each record again once
        /// it holds its owner's lock. Found by p37 (<c>managed-adopt.test.ts</c>): a start-up that read the records
        /// just before another copy's start-up claimed their dead run, recovered them (queued, records deleted) and let its
        /// lock go (file deleted) found no lock file, took the run for gone, and recovered what it had read: the session
        /// ended twice (<c>session:end</c> told twice, the copy answered SKIPPED). A run's lock is let go only after its
        /// records are recovered, so once it is claimed (held, or its file gone) a record still listed is one no one has
        /// recovered (or one whose delete failed, left for a later start-up as before). A listing, not a read: a dead run's
        /// records are written by no one. assumed: not delete-then-recover (only the one whose delete succeeds recovers):
        /// the record is the session's only copy until it is queued, so a kill between the delete and the queue write would
        /// lose it, and it costs a delete before each recovery besides the one after.
        /// </summary>
        internal static List<RunningRecord> StillStored(PlayerFolder player, List<RunningRecord> records)
        {
            if (records.Count == 0) return records;
            var stored = new HashSet<string>(TrackerFiles.JsonFiles(player.RunningDir), StringComparer.Ordinal);
            return records.FindAll(record => stored.Contains(record.SessionId + ".json"));
        }

        /// <summary>Deletes every record of this player (erasure).</summary>
        internal Task DeleteAll()
        {
            return IoQueue.Run(() =>
            {
                foreach (var name in TrackerFiles.JsonFiles(folder.RunningDir)) TrackerFiles.Delete(Path.Combine(folder.RunningDir, name));
            });
        }

        /// <summary>The stored opt-out choice; null when none is stored (or it could not be read: then set aside).</summary>
        internal static bool? ReadOptOut(PlayerFolder player, List<string> setAside)
        {
            var choice = TrackerFiles.Read(player.OptOutPath, node => node is bool ? (object)node : null, setAside);
            return choice == null ? (bool?)null : (bool)choice;
        }

        /// <summary>The stored opt-out choice as it is now (another copy of the game may have written it); null when none, or unreadable (left for start-up).</summary>
        internal static bool? PeekOptOut(PlayerFolder player)
        {
            var choice = TrackerFiles.Peek(player.OptOutPath, node => node is bool ? (object)node : null);
            return choice == null ? (bool?)null : (bool)choice;
        }

        internal Task WriteOptOut(bool optOut)
        {
            return IoQueue.Run(() => TrackerFiles.Write(folder.OptOutPath, optOut));
        }
    }
}
#endif
