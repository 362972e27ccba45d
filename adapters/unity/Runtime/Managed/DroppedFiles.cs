// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;

namespace GameCampaignSdk
{
    /// <summary>
    /// How a stored session the tracker drops leaves the disk so that a kill cannot lose its report: the file is renamed
    /// <c>{name}.{reason}.dropped</c> on the file worker (<see cref="Mark"/>), the game is told <c>dropped</c> on the main
    /// thread, then the renamed file is deleted (<see cref="DeleteTold"/>). Unity runs no main-thread step while the app is
    /// paused, and the OS may kill it there: a file deleted before the game was told took its report with it (found by p50
    /// for other players' expiry, by p51 for overflow and the relay's refusals, managed-suspend.test.ts). A start-up tells the
    /// game of every dropped file a kill left (<see cref="TrackerHousekeeping.ListOthers"/>), so each drop is told at least
    /// once and at most twice (a kill after the tell, before the delete). One mechanism for every drop of a stored session:
    /// expiry (TrackerHousekeeping), overflow (SessionQueue.Evict) and the relay's answers (ManagedFlusher.Drop).
    /// </summary>
    internal static class DroppedFiles
    {
        /// <summary>The suffix of a dropped file's name.</summary>
        internal const string Suffix = ".dropped";

        /// <summary>
        /// Renames <paramref name="path"/> to its dropped name, failing as its delete would (a read-only folder); the new
        /// path, or null when the file is not there (another copy of the game sent it meanwhile, or it was held in memory).
        /// </summary>
        internal static string Mark(string path, string reason)
        {
            if (!File.Exists(path)) return null;
            var target = path + "." + reason + Suffix;
            TrackerFiles.Rename(path, target);
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
                    erased.Add(dir == player.QueueDir && id.Length > 13 && id[12] == '-' ? id.Substring(13) : id); // queue names: {12-digit sequence}-{sessionId}
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
