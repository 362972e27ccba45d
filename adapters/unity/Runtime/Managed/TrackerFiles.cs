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
    internal static partial class TrackerFiles
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

        /// <summary>
        /// Renames <paramref name="path"/> to <paramref name="target"/> (replacing it), failing as its delete would (a
        /// read-only folder): a delete's stand-in whose file stays readable (TrackerHousekeeping.JudgeOne).
        /// </summary>
        internal static void Rename(string path, string target)
        {
            Observe("delete", path);
            CheckWritable(path);
            RenameFile(path, target);
        }

        /// <summary>Renames a file, replacing the target (tests replace it with one that refuses as a read-only folder does, with <see cref="DeleteFile"/>).</summary>
        internal static Action<string, string> RenameFile = (path, target) =>
        {
            if (File.Exists(target)) File.Delete(target);
            File.Move(path, target);
        };

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
