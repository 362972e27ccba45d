// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;

namespace GameCampaignSdk
{
    /// <summary>
    /// How a stored session the tracker drops leaves the disk so that a kill cannot lose its report: the file is renamed
    /// <c>{name}.{reason}.{run}.dropped</c> on the file worker (<see cref="Mark"/>; <c>{run}</c> the tracker run that tells it),
    /// the game is told <c>dropped</c> on the main thread, then the renamed file is deleted (<see cref="DeleteTold"/>). Unity runs no main-thread step while the app is
    /// paused, and the OS may kill it there: a file deleted before the game was told took its report with it (found by p50
    /// for other players' expiry, by p51 for overflow and the relay's refusals, managed-suspend.test.ts). A start-up tells the
    /// game of every dropped file a kill left (<see cref="TrackerHousekeeping.ListOthers"/>), each taken for its own run first
    /// (<see cref="Claim"/>: one whose run still lives is that run's to tell), so each drop is told at least once and at most
    /// twice (a kill after the tell, before the delete), also with two copies of a desktop game on one folder. One mechanism for every drop of a stored session:
    /// expiry (TrackerHousekeeping), overflow (SessionQueue.Evict) and the relay's answers (ManagedFlusher.Drop).
    /// </summary>
    internal static class DroppedFiles
    {
        /// <summary>The suffix of a dropped file's name.</summary>
        internal const string Suffix = ".dropped";

        /// <summary>
        /// The dropped name of <paramref name="path"/> (a session's <c>.json</c> file): <c>{path}.{reason}.{run}.dropped</c>,
        /// <paramref name="run"/> the tracker run that tells the game (<see cref="AliveLock"/>). Found by p52
        /// (ManagedDropPauseProbe LiveRunsDrops): without it, a second copy of a desktop game starting on the same folder told
        /// the game of a drop the first copy was telling (and again of a leftover the first copy's start-up was telling).
        /// </summary>
        internal static string MarkedPath(string path, string reason, string run)
        {
            return path + "." + reason + (run == null ? "" : "." + run) + Suffix;
        }

        /// <summary>
        /// Renames <paramref name="path"/> to its dropped name (<see cref="MarkedPath"/>), failing as its delete would (a
        /// read-only folder); the new path, or null when the file is not there (another copy of the game sent it meanwhile,
        /// or it was held in memory).
        /// </summary>
        internal static string Mark(string path, string reason, string run)
        {
            if (!File.Exists(path)) return null;
            var target = MarkedPath(path, reason, run);
            TrackerFiles.Rename(path, target);
            return target;
        }

        /// <summary>
        /// Takes a dropped file a start-up found (<paramref name="name"/> in <paramref name="player"/>'s folder) for this run
        /// (<paramref name="run"/>) to tell: renamed to this run's name, so another copy of the game on this folder, which
        /// finds it marked by a live run, leaves it. Null when it is not this run's to tell: the run that marked it still
        /// holds its lock (it tells the game itself; this run too, whose own drop a failed delete left), or another start-up
        /// took it first (the file gone). A file that cannot be
        /// renamed (a read-only folder) is told as it is (told again by later start-ups, as its delete fails too).
        /// assumed: the lock looked for is in the folder of the file's own player; another player's run telling it (its
        /// start-up judging other players) is not seen, so two players' copies starting at once may both tell it.
        /// </summary>
        internal static string Claim(PlayerFolder player, string dir, string name, string reason, string run)
        {
            var path = Path.Combine(dir, name);
            var marker = MarkerOf(name);
            if (marker != null && (marker == run || AliveLock.Holds(player, marker))) return null; // this run's own is told by this run
            var target = MarkedPath(Path.Combine(dir, name.Substring(0, JsonAt(name) + ".json".Length)), reason, run);
            try { TrackerFiles.Rename(path, target); }
            catch (Exception) { return File.Exists(path) ? path : null; }
            return target;
        }

        /// <summary>Whether <paramref name="name"/> is a dropped session file (a session's <c>.json</c>, then the suffix).</summary>
        internal static bool IsDropped(string name)
        {
            return name.EndsWith(Suffix, StringComparison.Ordinal) && JsonAt(name) > 0;
        }

        /// <summary>
        /// Where the <c>.json</c> of the session's own file name ends in <paramref name="name"/> (its last one: a reason holds
        /// none, a session id may). Found by p52 (ManagedDropPauseProbe OddNamesLeftDropped): cut at the first, a record
        /// renamed <c>s.json.json</c> (a name this SDK does not write) was told as session <c>s</c>, reason <c>json.too-short</c>.
        /// </summary>
        internal static int JsonAt(string name)
        {
            return name.LastIndexOf(".json", StringComparison.Ordinal);
        }

        /// <summary>
        /// The reason a dropped file's name holds; null for <c>{name}.json.dropped</c>, as p50's expiry named them (judged
        /// again).
        /// </summary>
        internal static string ReasonOf(string name)
        {
            var parts = PartsOf(name);
            return parts == null ? null : parts.Split('.')[0];
        }

        /// <summary>The run a dropped file's name holds (<see cref="MarkedPath"/>); null for names before p52.</summary>
        internal static string MarkerOf(string name)
        {
            var parts = PartsOf(name);
            var dot = parts == null ? -1 : parts.IndexOf('.');
            return dot < 0 ? null : parts.Substring(dot + 1);
        }

        /// <summary>What a dropped file's name holds between its <c>.json.</c> and <c>.dropped</c> (<c>{reason}</c> or <c>{reason}.{run}</c>); null when nothing.</summary>
        private static string PartsOf(string name)
        {
            var json = JsonAt(name) + ".json".Length;
            var end = name.Length - Suffix.Length;
            return end > json + 1 ? name.Substring(json + 1, end - json - 1) : null;
        }

        /// <summary>The dropped files in <paramref name="dir"/> (none when it is not there).</summary>
        internal static List<string> In(string dir)
        {
            var names = new List<string>();
            if (!Directory.Exists(dir)) return names;
            foreach (var path in Directory.GetFiles(dir)) if (IsDropped(Path.GetFileName(path))) names.Add(Path.GetFileName(path));
            names.Sort(StringComparer.Ordinal);
            return names;
        }

        /// <summary>
        /// Deletes <paramref name="player"/>'s own dropped files (its erasure: a kill left them before the game was told, or
        /// before their delete), returning the id of each session deleted; the first failure is thrown once all were tried.
        /// assumed: each is told <c>erased</c> as the rest of the erasure is (a kill may have left it untold).
        /// </summary>
        internal static List<string> Erase(PlayerFolder player)
        {
            var erased = new List<string>();
            Exception failed = null;
            foreach (var dir in new[] { player.QueueDir, player.RunningDir })
            {
                foreach (var name in In(dir))
                {
                    try { TrackerFiles.Delete(Path.Combine(dir, name)); }
                    catch (Exception error)
                    {
                        failed = failed ?? error;
                        continue;
                    }
                    var id = name.Substring(0, JsonAt(name));
                    erased.Add(dir == player.QueueDir ? SessionQueue.SessionIdIn(id) ?? id : id);
                }
            }
            if (failed != null) throw failed;
            return erased;
        }

        /// <summary>
        /// Deletes a dropped file once the game was told of it. One whose delete fails stays for the next start-up, which
        /// tells the game again. assumed: a second report rather than a delete the game never hears of.
        /// </summary>
        internal static bool DeleteTold(string path)
        {
            return path == null || TrackerFiles.TryDelete(path);
        }
    }
}
#endif
