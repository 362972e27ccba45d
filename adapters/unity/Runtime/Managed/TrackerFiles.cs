// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// Where one player's tracker data lives: <c>persistentDataPath/GameCampaign/{game}/{environment}/{player}/</c>,
    /// with <c>queue/</c> (a file per finished session), <c>running/</c> (the write-ahead record of each running
    /// session), <c>alive/</c> (the lock of each tracker run: <see cref="AliveLock"/>) and <c>opt-out.json</c>. The game is the Client key id, the environment <c>sandbox</c>, <c>live</c>
    /// or the custom API address's hash, with <c>-test</c> for test mode, so a session made against one
    /// environment (the Editor against a local relay) is never sent by a build running against another: Unity
    /// gives the Editor and a standalone build the same <c>persistentDataPath</c>. The player folder is a hash of
    /// the userId, so any id is a safe file name.
    /// </summary>
    internal sealed class PlayerFolder
    {
        private static readonly Regex SafeName = new Regex(@"^[A-Za-z0-9_-]{1,64}\z");

        internal readonly string Root;
        internal readonly string EnvironmentRoot;
        internal readonly string QueueDir;
        internal readonly string RunningDir;
        internal readonly string AliveDir;
        internal readonly string OptOutPath;
        /// <summary>The folder's path under <c>persistentDataPath</c> (the same under any data path: <see cref="Under"/>).</summary>
        private readonly string relative;

        private PlayerFolder(string environmentRoot, string player, string relative = null)
        {
            this.relative = relative;
            EnvironmentRoot = environmentRoot;
            Root = Path.Combine(environmentRoot, player);
            QueueDir = Path.Combine(Root, "queue");
            RunningDir = Path.Combine(Root, "running");
            AliveDir = Path.Combine(Root, "alive");
            OptOutPath = Path.Combine(Root, "opt-out.json");
        }

        /// <summary>The folder of <paramref name="userId"/> for the game of <paramref name="clientKeyId"/> in an environment (<c>sandbox</c>, <c>live</c>, or a base URL).</summary>
        internal static PlayerFolder For(string clientKeyId, string environment, bool isTest, string userId)
        {
            var game = SafeName.IsMatch(clientKeyId) ? clientKeyId : "key-" + Hash(clientKeyId);
            var place = environment == "sandbox" || environment == "live" ? environment : "custom-" + Hash(environment);
            var relative = Path.Combine(Path.Combine("GameCampaign", game), place + (isTest ? "-test" : ""));
            return new PlayerFolder(Path.Combine(Application.persistentDataPath, relative), "player-" + Hash(userId), relative);
        }

        /// <summary>The same player's folder under another data path (one Unity gave as <c>persistentDataPath</c> in another run).</summary>
        internal PlayerFolder Under(string dataPath)
        {
            return new PlayerFolder(Path.Combine(dataPath, relative), Path.GetFileName(Root), relative);
        }

        /// <summary>The other players' folders in this game and environment.</summary>
        internal IEnumerable<PlayerFolder> Others()
        {
            if (!Directory.Exists(EnvironmentRoot)) yield break;
            foreach (var dir in Directory.GetDirectories(EnvironmentRoot))
            {
                var name = Path.GetFileName(dir);
                if (dir != Root && name.StartsWith("player-", StringComparison.Ordinal)) yield return new PlayerFolder(EnvironmentRoot, name);
            }
        }

        private static string Hash(string text)
        {
            using (var sha = new SHA256Managed()) return RandomIds.Base64Url(sha.ComputeHash(Encoding.UTF8.GetBytes(text))).Substring(0, 22);
        }
    }

    /// <summary>
    /// The tracker's file operations (run on <see cref="IoQueue"/>): atomic, flushed writes (a temporary file
    /// written and fsynced, then moved over the old one, so a power loss leaves the old file or the new one), and
    /// reads that set a damaged file aside (renamed <c>*.unreadable</c>, kept for inspection, never read again).
    /// </summary>
    internal static class TrackerFiles
    {
        /// <summary>Extension of a file set aside because it could not be read.</summary>
        internal const string UnreadableSuffix = ".unreadable";

        /// <summary>Extension of the file a write goes to before it is moved into place.</summary>
        private const string TemporarySuffix = ".tmp";

        /// <summary>How many times a written file is moved into place before the write fails (see <see cref="MoveIntoPlace"/>).</summary>
        private const int PlaceAttempts = 4;

        /// <summary>The wait before the next try, ms, times the tries made (50, 100, 150: at most 300 ms on the file worker).</summary>
        private const int PlaceRetryMs = 50;

        /// <summary>
        /// Moves the written temporary file over <paramref name="path"/>, or to it when there is none (mono's and Unity's
        /// <c>File.Replace</c> demand an existing destination: mcs/class/corlib System.IO/File.cs <c>Replace</c>). On Android
        /// and iOS, IL2CPP's and Unity's mono's <c>File.Replace</c> is one rename(2) with no backup (libil2cpp
        /// os/Posix/File.cpp <c>File::ReplaceFile</c>, which Unity's mono calls too: Unity-Technologies/mono
        /// mono/metadata/w32file-unity.c <c>mono_w32file_replace</c> via <c>UnityPalReplaceFile</c>): atomic, the temporary
        /// file being in the same folder. On Windows it is ReplaceFileW (os/Win32/File.cpp), which fails while another
        /// process holds the old file open without delete sharing: an antivirus or the search indexer scanning it, or a
        /// second copy of the game (the Editor beside a build) reading the player's choice (<c>File.ReadAllText</c> shares
        /// reading only). Such a refusal is brief, so the move is tried again (<see cref="PlaceAttempts"/>); the old file
        /// stays whole meanwhile. Tests replace it with one that refuses as ReplaceFileW does.
        /// </summary>
        internal static Action<string, string> MoveIntoPlace = (temporary, path) =>
        {
            if (File.Exists(path)) File.Replace(temporary, path, null);
            else File.Move(temporary, path); // a destination made meanwhile fails this try; the next one replaces it
        };

        /// <summary>
        /// Deletes a file that is there (tests replace it with one that refuses as Windows does). On Windows, DeleteFileW fails
        /// with ERROR_SHARING_VIOLATION while another process holds the file open without delete sharing, as
        /// <c>File.ReadAllText</c> opens it (<c>FileShare.Read</c>): a second copy of the game reading this player's running
        /// records at its start-up, an antivirus scanning a file just written. Mono and IL2CPP throw an IOException with
        /// HResult 0x80070020 for it (mono mcs/class/corlib System.IO/MonoIO.cs <c>GetException</c>; 0x80070021 for a lock
        /// violation).
        /// </summary>
        internal static Action<string> DeleteFile = path =>
        {
            if (File.Exists(path)) File.Delete(path);
        };

        /// <summary>Tests only: when it answers true for a path, writing or deleting it fails as on a full disk.</summary>
        internal static Func<string, bool> RefuseWrite = null;

        /// <summary>
        /// The temporary file a write of <paramref name="path"/> goes to: a name of its own per write (random), so two copies
        /// of the game (the Editor beside a build, two desktop windows) writing the player's opt-out choice at once never
        /// write through one temporary file (one's half-written bytes moved into place as the other's, or its file moved away
        /// under the other's move). Tests replace it.
        /// </summary>
        internal static Func<string, string> TemporaryFor = path => path + "." + RandomIds.Base64Url(RandomIds.Bytes(6)) + TemporarySuffix;

        /// <summary>Tests only: hears every file operation (<c>write</c>, <c>delete</c>, <c>read</c>, <c>list</c>) and its path, on the thread that does it.</summary>
        internal static Action<string, string> Observer = null;

        private static void Observe(string operation, string path)
        {
            var observer = Observer;
            if (observer != null) observer(operation, path);
        }

        private static void CheckWritable(string path)
        {
            var refuse = RefuseWrite;
            if (refuse != null && refuse(path)) throw new IOException("Disk full: cannot write " + path);
        }

        internal static void Write(string path, object json)
        {
            WriteBytes(path, new UTF8Encoding(false).GetBytes(Json.Serialize(json)));
        }

        /// <summary>Writes <paramref name="bytes"/> to a temporary file, flushed to the disk, then moved into place.</summary>
        internal static void WriteBytes(string path, byte[] bytes)
        {
            Observe("write", path);
            CheckWritable(path);
            Directory.CreateDirectory(Path.GetDirectoryName(path));
            var temporary = TemporaryFor(path);
            try
            {
                using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None))
                {
                    stream.Write(bytes, 0, bytes.Length);
                    stream.Flush(true); // to the disk, not only the OS's cache
                }
                for (var attempt = 1; ; attempt++)
                {
                    try
                    {
                        MoveIntoPlace(temporary, path);
                        break;
                    }
                    catch (Exception error) when ((error is IOException || error is UnauthorizedAccessException) && attempt < PlaceAttempts)
                    {
                        Thread.Sleep(PlaceRetryMs * attempt);
                    }
                }
            }
            catch (Exception)
            {
                // A full disk: the part written would hold the last free blocks (a file per failed session write).
                TryDelete(temporary);
                throw;
            }
        }

        /// <summary>
        /// Deletes the temporary files that writes cut short by a kill or a power loss left in <paramref name="player"/>'s
        /// folders (nothing else deletes them). assumed: one whose last write is over a minute away from now by the file
        /// system's clock, either way, is such a leftover (a live run's write takes milliseconds: another copy of the game
        /// on the same folder, the Editor beside a build, keeps its own). Either way: a file a kill left while the device
        /// clock was set ahead is dated in the future once the clock is right again; before (found by p34), it was kept
        /// until the clock got there (years). A failed delete leaves it for the next start-up.
        /// </summary>
        internal static void SweepTemporary(PlayerFolder player)
        {
            foreach (var dir in new[] { player.Root, player.QueueDir, player.RunningDir })
            {
                if (!Directory.Exists(dir)) continue;
                foreach (var path in Directory.GetFiles(dir))
                    if (path.EndsWith(TemporarySuffix, StringComparison.Ordinal) && (DateTime.UtcNow - File.GetLastWriteTimeUtc(path)).Duration() > TimeSpan.FromMinutes(1)) TryDelete(path);
            }
        }

        /// <summary><see cref="Delete"/>; whether it worked (a failed one leaves the file for the next start-up).</summary>
        internal static bool TryDelete(string path)
        {
            try { Delete(path); return true; }
            catch (Exception) { return false; }
        }

        /// <summary>
        /// Deletes a file; one that is not there is fine. A delete another process refuses for a moment (a sharing or lock
        /// violation: <see cref="DeleteFile"/>) is tried again as a refused move is (<see cref="PlaceAttempts"/>, at most
        /// 300 ms on the file worker); any other failure (a read-only folder) fails at once. Before, the refusal failed the
        /// delete: an erased player's running session was sent by the next start-up.
        /// </summary>
        internal static void Delete(string path)
        {
            Observe("delete", path);
            CheckWritable(path);
            for (var attempt = 1; ; attempt++)
            {
                try
                {
                    DeleteFile(path);
                    return;
                }
                catch (IOException error) when (IsHeldByAnother(error) && attempt < PlaceAttempts)
                {
                    Thread.Sleep(PlaceRetryMs * attempt);
                }
            }
        }

        /// <summary>Win32 ERROR_SHARING_VIOLATION (32) or ERROR_LOCK_VIOLATION (33), as mono's and IL2CPP's IOException carry them (0x8007xxxx).</summary>
        private static bool IsHeldByAnother(IOException error)
        {
            return error.HResult == unchecked((int)0x80070020) || error.HResult == unchecked((int)0x80070021);
        }

        /// <summary>
        /// The JSON in <paramref name="path"/> read by <paramref name="read"/>; default when there is no file. A file
        /// that does not parse, or that <paramref name="read"/> does not accept (returns default), is set aside and
        /// its path added to <paramref name="setAside"/>.
        /// </summary>
        internal static T Read<T>(string path, Func<object, T> read, List<string> setAside) where T : class
        {
            string text;
            Observe("read", path);
            try { text = File.ReadAllText(path, Encoding.UTF8); }
            catch (FileNotFoundException) { return null; }
            catch (DirectoryNotFoundException) { return null; }
            T value = null;
            try { value = read(Json.Parse(text)); }
            catch (Exception) { value = null; }
            if (value != null) return value;
            SetAside(path);
            setAside.Add(path);
            return null;
        }

        /// <summary>Like <see cref="Read{T}"/>, but a file that cannot be read or is not accepted is left where it is: null.</summary>
        internal static T Peek<T>(string path, Func<object, T> read) where T : class
        {
            Observe("read", path);
            try { return read(Json.Parse(File.ReadAllText(path, Encoding.UTF8))); }
            catch (Exception) { return null; }
        }

        /// <summary>Renames a damaged file out of the tracker's way (kept for inspection); a failed rename leaves it.</summary>
        internal static void SetAside(string path)
        {
            try
            {
                var target = path + UnreadableSuffix;
                for (var i = 1; File.Exists(target); i++) target = path + "." + i + UnreadableSuffix;
                CheckWritable(target);
                File.Move(path, target);
            }
            catch (Exception error)
            {
                Debug.LogException(error);
            }
        }

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
        /// Moves what <paramref name="other"/> (this player's folder under another data path) holds into <paramref name="own"/>:
        /// queued sessions and running records (a crashed run's, recovered by the start-up as any other), keeping their
        /// names (queue order, session ids), and the opt-out choice when this folder has none or an older one. Nothing is
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
        /// (<see cref="DeleteTaken"/>).
        /// With no run alive there, the dead runs' lock files and the writes' temporary files left there are deleted too. A
        /// running record whose run holds its lock there is left even so: that run started after the check (found by p34:
        /// before, the check was made once, and a run starting there meanwhile had its running record taken, recovered here
        /// as a dead run's and sent while it played).
        /// </summary>
        internal static void Adopt(PlayerFolder own, PlayerFolder other)
        {
            if (other.Root == own.Root) return;
            foreach (var dirs in new[] { new[] { own.QueueDir, other.QueueDir }, new[] { own.RunningDir, other.RunningDir } })
            {
                try { DeleteTaken(dirs[0], dirs[1]); }
                catch (Exception) { /* looked at again by the next start-up */ }
            }
            try { if (AliveLock.AnyAlive(other)) return; }
            catch (Exception) { return; } // not to be looked at now
            foreach (var dirs in new[] { new[] { other.QueueDir, own.QueueDir }, new[] { other.RunningDir, own.RunningDir } })
            {
                List<string> names;
                try { names = JsonFiles(dirs[0]); }
                catch (Exception) { continue; }
                foreach (var name in names)
                {
                    try
                    {
                        // A run started there since the check above (its lock taken before its first record) keeps its session.
                        if (dirs[0] == other.RunningDir && AliveLock.Holds(other, Peek(Path.Combine(dirs[0], name), node => Json.Str(Json.Obj(node), "owner")))) continue;
                        AdoptFile(Path.Combine(dirs[0], name), Path.Combine(dirs[1], name));
                    }
                    catch (Exception) { /* left there for the next start-up */ }
                }
                try { if (Directory.Exists(dirs[0])) ForgetAdopted(dirs[1], names); } // a folder not there may be unmounted: its originals may come back
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

        /// <summary>Extension of the mark of an original taken in whose delete failed (<see cref="Adopt"/>).</summary>
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
        /// Deletes the files in <paramref name="dir"/> (this path's) that a run on the other path copied in and marked there
        /// (<paramref name="otherDir"/>, <c>{name}.adopted</c>: their delete here failed then), then the marks. Found by p34:
        /// when Unity gave this path back, its start-up read them as its own, recovered the running session a second time
        /// and sent the queued ones again (the service answers SKIPPED), and the marks stayed. Done while a run plays on
        /// the other path too: the copy is that path's whatever it does. A mark whose original is gone is deleted too.
        /// </summary>
        private static void DeleteTaken(string dir, string otherDir)
        {
            if (!Directory.Exists(otherDir)) return;
            foreach (var mark in Directory.GetFiles(otherDir))
            {
                if (!mark.EndsWith(AdoptedSuffix, StringComparison.Ordinal)) continue;
                var name = Path.GetFileName(mark);
                if (!TryDelete(Path.Combine(dir, name.Substring(0, name.Length - AdoptedSuffix.Length)))) continue; // kept: tried again by the next start-up
                TryDelete(mark);
            }
        }

        /// <summary>Deletes the marks in <paramref name="dir"/> of originals no longer in the other folder (<paramref name="names"/>: deleted by hand, or by another start-up), when that folder is there (shared storage unmounted looks like no folder).</summary>
        private static void ForgetAdopted(string dir, List<string> names)
        {
            if (!Directory.Exists(dir)) return;
            var there = new HashSet<string>(names, StringComparer.Ordinal);
            foreach (var path in Directory.GetFiles(dir))
                if (path.EndsWith(AdoptedSuffix, StringComparison.Ordinal) && !there.Contains(Path.GetFileName(path).Substring(0, Path.GetFileName(path).Length - AdoptedSuffix.Length))) TryDelete(path);
        }

        /// <summary>The names of the <c>*.json</c> files in <paramref name="dir"/>, sorted ordinally; none when it does not exist.</summary>
        internal static List<string> JsonFiles(string dir)
        {
            var names = new List<string>();
            Observe("list", dir);
            if (!Directory.Exists(dir)) return names;
            foreach (var path in Directory.GetFiles(dir)) if (path.EndsWith(".json", StringComparison.Ordinal)) names.Add(Path.GetFileName(path));
            names.Sort(StringComparer.Ordinal);
            return names;
        }
    }
}
#endif
