// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;

namespace GameCampaignSdk
{
    /// <summary>
    /// Other runs' alive locks (<see cref="AliveLock"/>): which runs in a player's folder are gone, so their running
    /// records may be recovered (<see cref="OfGoneRuns"/>), whether any run still plays there (<see cref="AnyAlive"/>,
    /// <see cref="Holds"/>), and the lock files gone runs left (<see cref="DeleteDead"/>). Each asks by trying to take a
    /// run's lock: one that cannot be taken is held by a live copy.
    /// </summary>
    internal sealed partial class AliveLock
    {
        /// <summary>
        /// The records of runs that are gone (lock free, lock file missing, no owner recorded) out of
        /// <paramref name="records"/>, leaving those of live runs (their lock held by another process) and of
        /// <paramref name="ownRun"/>. The dead runs' locks it took (and any lock file left by a run that is gone) are
        /// added to <paramref name="claimed"/>: held until their records are recovered, then <see cref="Release"/>d,
        /// so a third copy starting meanwhile leaves them alone. Of those, only the ones still stored once the runs are
        /// claimed are returned (<see cref="RunningStore.StillStored"/>): the records were read before the claim.
        /// </summary>
        internal static List<RunningRecord> OfGoneRuns(PlayerFolder folder, string ownRun, List<RunningRecord> records, List<AliveLock> claimed)
        {
            var alive = new HashSet<string>();
            var checkedRuns = new HashSet<string> { ownRun };
            var runs = new List<string>();
            foreach (var record in records) if (record.Owner != null) runs.Add(record.Owner);
            foreach (var name in Directory.Exists(folder.AliveDir) ? Directory.GetFiles(folder.AliveDir, "*.lock") : new string[0]) runs.Add(Path.GetFileNameWithoutExtension(name));
            foreach (var run in runs)
            {
                if (!checkedRuns.Add(run) || !SafeName.IsMatch(run)) continue;
                var path = PathOf(folder, run);
                try { claimed.Add(new AliveLock(path, Open(path, FileMode.Open, FileShare.Delete))); }
                catch (FileNotFoundException) { /* gone, and its lock file with it */ }
                catch (DirectoryNotFoundException) { }
                catch (Exception) { alive.Add(run); } // held by a live copy (or not to be opened now): left for a later start-up
            }
            var gone = new List<RunningRecord>();
            foreach (var record in records) if (record.Owner != ownRun && (record.Owner == null || !alive.Contains(record.Owner))) gone.Add(record);
            return RunningStore.StillStored(folder, gone);
        }

        /// <summary>
        /// Whether a run holds an alive lock in <paramref name="folder"/> (another process playing there: a lock that cannot
        /// be taken now counts as held). A free lock is closed again at once.
        /// </summary>
        internal static bool AnyAlive(PlayerFolder folder)
        {
            if (!Directory.Exists(folder.AliveDir)) return false;
            foreach (var path in Directory.GetFiles(folder.AliveDir, "*.lock"))
            {
                try { Open(path, FileMode.Open).Dispose(); }
                catch (FileNotFoundException) { }
                catch (DirectoryNotFoundException) { }
                catch (Exception) { return true; }
            }
            return false;
        }

        /// <summary>
        /// Whether the run <paramref name="run"/> holds its lock in <paramref name="folder"/> (a lock that cannot be taken now
        /// counts as held); false for no run, or a name that is not a run's. A free lock is closed again at once.
        /// </summary>
        internal static bool Holds(PlayerFolder folder, string run)
        {
            if (run == null || !SafeName.IsMatch(run)) return false;
            try { Open(PathOf(folder, run), FileMode.Open).Dispose(); }
            catch (FileNotFoundException) { return false; }
            catch (DirectoryNotFoundException) { return false; }
            catch (Exception) { return true; }
            return false;
        }

        /// <summary>
        /// Deletes the lock files of runs that are gone in <paramref name="folder"/> (another data path's, where no start-up
        /// of this path's runs ever looks: <see cref="TrackerFiles.AdoptionOf"/>): each one only once its lock was taken, so a
        /// live run's (lock held) stays. A run's id is its own, so a gone run's file is never locked again. Each is deleted
        /// while its lock is held, then closed (Windows deletes it at the close): before (found by p34), it was closed first,
        /// and a start-up of that path claiming the dead run's lock just then (<see cref="OfGoneRuns"/>) held a lock on a
        /// file unlinked under it, which no third start-up could see.
        /// </summary>
        internal static void DeleteDead(PlayerFolder folder)
        {
            if (!Directory.Exists(folder.AliveDir)) return;
            foreach (var path in Directory.GetFiles(folder.AliveDir, "*.lock"))
            {
                FileStream held;
                try { held = Open(path, FileMode.Open, FileShare.Delete); }
                catch (Exception) { continue; } // held by a live run (or gone already, or not to be opened now)
                try { Delete(path); }
                finally { held.Dispose(); }
            }
        }
    }
}
#endif
