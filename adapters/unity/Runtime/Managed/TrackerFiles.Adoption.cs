// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;
using System.Text.RegularExpressions;

namespace GameCampaignSdk
{
    /// <summary>What a start-up takes in from this player's folder under another data path (<see cref="TrackerFiles.AdoptionOf"/>).</summary>
    internal sealed class Adoption
    {
        internal readonly PlayerFolder Own;
        internal readonly PlayerFolder Other;
        /// <summary>The files to move: folder there, folder here, name.</summary>
        internal readonly List<string[]> Files = new List<string[]>();
        /// <summary>The folders there that could be listed (there, here), with the names found.</summary>
        internal readonly List<KeyValuePair<string[], List<string>>> Listed = new List<KeyValuePair<string[], List<string>>>();
        /// <summary>
        /// Marks here of originals no longer there, found by <see cref="TrackerFiles.EndAdoption"/>: deleted after it, a file a
        /// job item in slices (found by p50, managed-suspend.test.ts: 400 such marks deleted in its one file job held a
        /// pause's checkpoint past its 1 s wait, 8 s at 20 ms a delete).
        /// </summary>
        internal readonly List<string> Forget = new List<string>();

        internal Adoption(PlayerFolder own, PlayerFolder other)
        {
            Own = own;
            Other = other;
        }
    }

    /// <summary>Taking in what Unity's other data paths for this app hold (Android's internal and shared storage).</summary>
    internal static partial class TrackerFiles
    {
        /// <summary>
        /// The other folders Unity may have given as <c>persistentDataPath</c> to this app on this device (tests replace it).
        /// On Android Unity's manual says it is the app's external files folder (<c>/storage/emulated/{user}/Android/data/{package}/files</c>)
        /// and, when that cannot be resolved (shared storage not mounted yet), the internal one (<c>/data/data/{package}/files</c>),
        /// so a run that got the other one stored its sessions there (Scripting API, <c>Application.persistentDataPath</c>).
        /// Elsewhere none.
        /// </summary>
        internal static Func<string, IEnumerable<string>> OtherDataPaths =
#if UNITY_ANDROID && !UNITY_EDITOR
            AndroidDataPaths;
#else
            dataPath => new string[0];
#endif

        // A package name is dot-separated Java identifiers (Android's manifest `package`), so never "." or "..".
        private static readonly Regex AndroidExternal = new Regex(@"^/storage/emulated/([0-9]+)/Android/data/([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)/files\z", RegexOptions.CultureInvariant);
        private static readonly Regex AndroidInternal = new Regex(@"^/data/(?:data|user/([0-9]+))/([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)/files\z", RegexOptions.CultureInvariant);

        /// <summary>
        /// The Android folder of the other kind (internal for external, external for internal) of the same user (the number
        /// in <c>/storage/emulated/{user}</c> and <c>/data/user/{user}</c>; <c>/data/data</c> is user 0's) and package; none
        /// for another path. assumed: an SD card's folder (<c>/storage/XXXX-XXXX/Android/data/{package}/files</c>, which
        /// Unity's manual says older phones may give) and an app moved to adoptable storage (<c>/mnt/expand/{uuid}/user/...</c>)
        /// have no counterpart here (not derived: the card's or volume's id is not in the other path), and nothing maps to
        /// another package's or another user's folder.
        /// </summary>
        internal static IEnumerable<string> AndroidDataPaths(string dataPath)
        {
            var path = (dataPath ?? "").TrimEnd('/');
            var external = AndroidExternal.Match(path);
            if (external.Success) return new[] { external.Groups[1].Value == "0" ? "/data/data/" + external.Groups[2].Value + "/files" : "/data/user/" + external.Groups[1].Value + "/" + external.Groups[2].Value + "/files" };
            var inside = AndroidInternal.Match(path);
            if (inside.Success) return new[] { "/storage/emulated/" + (inside.Groups[1].Success ? inside.Groups[1].Value : "0") + "/Android/data/" + inside.Groups[2].Value + "/files" };
            return new string[0];
        }

        /// <summary>
        /// Takes in what <paramref name="other"/> (this player's folder under another data path) holds, into <paramref name="own"/>
        /// (this, then <see cref="AdoptOne"/> for each listed file, then <see cref="EndAdoption"/>):
        /// queued sessions and running records (a crashed run's, recovered by the start-up as any other) and the files of
        /// sessions dropped there but not yet told and deleted (<see cref="DroppedFiles"/>), keeping their
        /// names (queue order, session ids, drop reasons), and the opt-out choice when this folder has none or an older one. Nothing is
        /// taken while a run holds an alive lock there (another process of the app playing on that path: its running
        /// record would be recovered here while it goes on, its play counted twice); a later start-up takes it. Each file is
        /// copied to a temporary file here, flushed, renamed into place, then the original deleted: the two folders are
        /// different mounts on Android (internal and shared storage), where mono's <c>File.Move</c> copies into the final name
        /// then unlinks (strace of mono 6.8: link fails EXDEV, open O_CREAT|O_EXCL, unlink), so a kill mid-copy left a partial file under the
        /// session's name and the next start-up deleted the whole original. A name in both folders is a move cut short:
        /// the copy that parses is kept. A file or folder that cannot be read or moved (shared storage unmounted again,
        /// permission denied) is left for the next start-up; the others still move. An original whose delete fails after its
        /// copy is in place is marked here (<c>{name}.adopted</c>, empty): a later start-up only deletes it, not copying it
        /// again (before, the copy sent and gone, the next start-up took the original again and sent the session twice);
        /// a run on the original's own path deletes its files so marked on the other path before it reads them
        /// (<see cref="TakenOf"/>, then <see cref="DeleteTakenOne"/> for each, before this).
        /// With no run alive there, the dead runs' lock files and the writes' temporary files left there are deleted too. A
        /// running record whose run holds its lock there is left even so: that run started after the check (found by p34:
        /// before, the check was made once, and a run starting there meanwhile had its running record taken, recovered here
        /// as a dead run's and sent while it played).
        /// </summary>
        /// <remarks>
        /// The first step after the files taken in earlier and marked are deleted here: what is to move is listed; null when
        /// nothing is to be taken (the same folder, or a run alive there). The tracker then moves each file
        /// (<see cref="AdoptOne"/>) in slices of file jobs (<see cref="IoQueue.RunEach"/>) and ends with <see cref="EndAdoption"/>,
        /// so a pause's checkpoint asked for meanwhile waits for one slice, not for a backlog of hundreds of files.
        /// </remarks>
        internal static Adoption AdoptionOf(PlayerFolder own, PlayerFolder other)
        {
            if (other.Root == own.Root) return null;
            try { if (AliveLock.AnyAlive(other)) return null; }
            catch (Exception) { return null; } // not to be looked at now
            var adoption = new Adoption(own, other);
            foreach (var dirs in new[] { new[] { other.QueueDir, own.QueueDir }, new[] { other.RunningDir, own.RunningDir } })
            {
                List<string> names;
                try
                {
                    names = JsonFiles(dirs[0]);
                    // Dropped files a kill left there before the game was told (DroppedFiles): taken in as the rest, then told by
                    // this start-up (TrackerHousekeeping.ListOthers). Found by p52: left there, they were told only when Unity
                    // gave that path back, maybe never.
                    names.AddRange(DroppedFiles.In(dirs[0]));
                }
                catch (Exception) { continue; }
                adoption.Listed.Add(new KeyValuePair<string[], List<string>>(dirs, names));
                foreach (var name in names) adoption.Files.Add(new[] { dirs[0], dirs[1], name });
            }
            return adoption;
        }

        /// <summary>Moves one listed file (from, to, name) of <paramref name="adoption"/>; one that cannot be moved is left there for the next start-up.</summary>
        internal static void AdoptOne(Adoption adoption, string[] file)
        {
            try
            {
                // A run started there since the check above (its lock taken before its first record) keeps its session.
                if (file[0] == adoption.Other.RunningDir && AliveLock.Holds(adoption.Other, Peek(Path.Combine(file[0], file[2]), node => Json.Str(Json.Obj(node), "owner")))) return;
                AdoptFile(Path.Combine(file[0], file[2]), Path.Combine(file[1], file[2]));
            }
            catch (Exception) { /* left there for the next start-up */ }
        }

        /// <summary><see cref="AdoptionOf"/>'s last step, once each listed file was moved (or left): leftovers and the opt-out choice, and the marks to forget listed (<see cref="Adoption.Forget"/>, each then deleted by <see cref="TryDelete"/>).</summary>
        internal static void EndAdoption(Adoption adoption)
        {
            var other = adoption.Other;
            var own = adoption.Own;
            foreach (var listed in adoption.Listed)
            {
                try { if (Directory.Exists(listed.Key[0])) ForgetAdopted(listed.Key[1], listed.Value, adoption.Forget); } // a folder not there may be unmounted: its originals may come back
                catch (Exception) { /* looked at again by the next start-up */ }
            }
            try { SweepTemporary(other); }
            catch (Exception) { /* left for the next start-up */ }
            try { AliveLock.DeleteDead(other); }
            catch (Exception) { /* left for the next start-up */ }
            try
            {
                if (File.Exists(other.OptOutPath))
                {
                    if (!File.Exists(own.OptOutPath) || File.GetLastWriteTimeUtc(other.OptOutPath) > File.GetLastWriteTimeUtc(own.OptOutPath)) WriteBytes(own.OptOutPath, File.ReadAllBytes(other.OptOutPath));
                    Delete(other.OptOutPath);
                }
            }
            catch (Exception) { /* left there for the next start-up */ }
        }

        /// <summary>Extension of the mark of an original taken in whose delete failed (<see cref="AdoptionOf"/>).</summary>
        private const string AdoptedSuffix = ".adopted";

        private static void AdoptFile(string from, string to)
        {
            var mark = to + AdoptedSuffix;
            if (!File.Exists(mark))
            {
                if (!File.Exists(to) || Peek(to, node => node) == null) WriteBytes(to, File.ReadAllBytes(from));
                try
                {
                    Delete(from);
                    return;
                }
                catch (Exception)
                {
                    WriteBytes(mark, new byte[0]); // a failed mark: the original may be taken (and sent) again, as before
                    throw;
                }
            }
            Delete(from);
            TryDelete(mark);
        }

        /// <summary>
        /// The files here (<paramref name="own"/>, this path's) that a run on the other path (<paramref name="other"/>) copied
        /// in and marked there (<c>{name}.adopted</c>: their delete here failed then), each with its mark: deleted by
        /// <see cref="DeleteTakenOne"/>, a file a job item in slices (found by p50, managed-suspend.test.ts: 400 such originals
        /// and their marks deleted in the adoption's first file job held a pause's checkpoint past its 1 s wait, 16 s at 20 ms
        /// a delete). Found by p34: when Unity gave this path back, its start-up read them as its own, recovered the running
        /// session a second time and sent the queued ones again (the service answers SKIPPED), and the marks stayed. Done while
        /// a run plays on the other path too: the copy is that path's whatever it does. A mark whose original is gone is
        /// deleted too.
        /// </summary>
        internal static List<string[]> TakenOf(PlayerFolder own, PlayerFolder other)
        {
            var taken = new List<string[]>();
            if (other.Root == own.Root) return taken;
            foreach (var dirs in new[] { new[] { own.QueueDir, other.QueueDir }, new[] { own.RunningDir, other.RunningDir } })
            {
                try
                {
                    if (!Directory.Exists(dirs[1])) continue;
                    foreach (var mark in Directory.GetFiles(dirs[1]))
                    {
                        if (!mark.EndsWith(AdoptedSuffix, StringComparison.Ordinal)) continue;
                        var name = Path.GetFileName(mark);
                        taken.Add(new[] { Path.Combine(dirs[0], name.Substring(0, name.Length - AdoptedSuffix.Length)), mark });
                    }
                }
                catch (Exception) { /* looked at again by the next start-up */ }
            }
            return taken;
        }

        /// <summary>Deletes one original of <see cref="TakenOf"/> (original here, mark there), then its mark; a failed delete keeps both for the next start-up.</summary>
        internal static bool DeleteTakenOne(string[] taken)
        {
            return TryDelete(taken[0]) && TryDelete(taken[1]);
        }

        /// <summary>Adds to <paramref name="forget"/> the marks in <paramref name="dir"/> of originals no longer in the other folder (<paramref name="names"/>: deleted by hand, or by another start-up), when that folder is there (shared storage unmounted looks like no folder).</summary>
        private static void ForgetAdopted(string dir, List<string> names, List<string> forget)
        {
            if (!Directory.Exists(dir)) return;
            var there = new HashSet<string>(names, StringComparer.Ordinal);
            foreach (var path in Directory.GetFiles(dir))
                if (path.EndsWith(AdoptedSuffix, StringComparison.Ordinal) && !there.Contains(Path.GetFileName(path).Substring(0, Path.GetFileName(path).Length - AdoptedSuffix.Length))) forget.Add(path);
        }
    }
}
#endif
