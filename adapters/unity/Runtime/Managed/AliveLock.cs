// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;
using System.Text.RegularExpressions;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// A tracker run's "alive" lock (core/tracker/tracker.ts <c>aliveLockName</c>, housekeeping.ts
    /// <c>recoverCrashedSessions</c>): the file <c>alive/{run}.lock</c> in the player's folder, held open and locked
    /// for as long as the run lives, so a second copy of the game (two desktop players, or the Editor next to a build,
    /// on one <c>persistentDataPath</c>) can tell a running session of a live run from one a killed run left: it
    /// recovers a run's records only when it can take that run's lock itself, or the lock file is gone.
    /// The lock is <see cref="FileStream.Lock"/> on byte 0, on a file opened with <see cref="FileShare.None"/>:
    /// Windows enforces both between processes (LockFileEx, sharing modes). On Linux, macOS, Android and iOS only the
    /// lock is: mono's FileStream.Lock is fcntl(F_SETLK, F_WRLCK) (mono/mono mono/metadata/w32file-unix.c,
    /// <c>_wapi_lock_file_region</c>), as is IL2CPP's (libil2cpp os/Posix/File.cpp <c>File::Lock</c>; os/Win32 uses
    /// LockFileEx with LOCKFILE_FAIL_IMMEDIATELY), and a conflict is an IOException ("Lock violation", MonoIO
    /// ERROR_LOCK_VIOLATION); mono's sharing modes are kept per process (w32file-unix.c <c>file_share_table</c>). The
    /// OS drops an fcntl lock when its process ends, however it ends: a killed run's lock is free at once.
    /// Both treat ENOLCK/ENOTSUP (a file system without locks) as success: there every lock can be taken, so every
    /// record is recovered, as before this lock existed; where Lock throws anything else, the run keeps no lock file
    /// (the same). Runs on <see cref="IoQueue"/>.
    /// </summary>
    internal sealed partial class AliveLock
    {
        private static readonly Regex SafeName = new Regex(@"^[A-Za-z0-9_-]{1,64}\z");
        /// <summary>The locks this process holds (its own runs' and dead runs' it claimed).</summary>
        private static readonly List<AliveLock> Held = new List<AliveLock>();

        /// <summary>Locks byte 0 of a lock file; tests replace it with one that throws, as a device that cannot lock.</summary>
        internal static Action<FileStream> LockRegion = stream => stream.Lock(0, 1);

        private readonly string path;
        private FileStream stream;

        private AliveLock(string path, FileStream stream)
        {
            this.path = path;
            this.stream = stream;
            lock (Held) Held.Add(this);
        }

        /// <summary>A new run's id (a safe file name).</summary>
        internal static string NewRunId() { return RandomIds.Base64Url(RandomIds.Bytes(12)); }

        private static string PathOf(PlayerFolder folder, string run) { return Path.Combine(folder.AliveDir, run + ".lock"); }

        /// <summary>
        /// Opens and locks <paramref name="path"/>; the stream, or an exception (the lock is another process's, or cannot be
        /// taken here). <paramref name="share"/> <see cref="FileShare.Delete"/> lets this process rename or delete the file
        /// while it holds it (Windows' sharing modes; mono's <c>File.Move</c> checks them within a process too: mono/metadata
        /// w32file-unix.c <c>mono_w32file_move</c>, <c>share_allows_delete</c>); another process still cannot open it.
        /// </summary>
        private static FileStream Open(string path, FileMode mode, FileShare share = FileShare.None)
        {
            var stream = new FileStream(path, mode, FileAccess.ReadWrite, share);
            try { LockRegion(stream); }
            catch (Exception)
            {
                stream.Dispose();
                throw;
            }
            return stream;
        }

        /// <summary>
        /// Takes the lock of the run <paramref name="run"/> for its life; null when this platform cannot lock (its file
        /// removed again, a warning logged): then no other copy waits for this run, as before (one copy assumed).
        /// </summary>
        /// <remarks>
        /// The file is made and locked under a name no one looks for (<c>{run}.new</c>), then renamed (the lock goes with
        /// it: fcntl and LockFileEx locks belong to the file, not its name). Found by p34: made under its own name, it was
        /// there unlocked for a moment, where on Linux, macOS and Android another process's open succeeds (mono's and
        /// IL2CPP's sharing modes are kept per process): another copy's <see cref="DeleteDead"/> (an Android run adopting this
        /// path) took that free lock and unlinked the file, so this run locked a file no one else could see, and the next
        /// adoption took its running session while it played; a start-up's <see cref="OfGoneRuns"/> or
        /// <see cref="AnyAlive"/> holding it just then failed this run's lock (no lock for its whole life). Windows never
        /// let another process open it (<see cref="FileShare.None"/> from its creation). assumed: a kill between the
        /// making and the rename leaves an empty <c>.new</c> file for good (no one can tell it from one about to be locked).
        /// </remarks>
        internal static AliveLock Take(PlayerFolder folder, string run)
        {
            var path = PathOf(folder, run);
            var fresh = Path.Combine(folder.AliveDir, run + ".new");
            try
            {
                Directory.CreateDirectory(folder.AliveDir);
                var stream = Open(fresh, FileMode.CreateNew, FileShare.Delete);
                try { File.Move(fresh, path); }
                catch (Exception)
                {
                    // A file system that cannot rename an open file: made under its own name, as before.
                    stream.Dispose();
                    Delete(fresh);
                    stream = Open(path, FileMode.Create, FileShare.Delete);
                }
                return new AliveLock(path, stream);
            }
            catch (Exception error)
            {
                Delete(fresh);
                Delete(path);
                Debug.LogWarning("Game Campaign: this device cannot lock files (" + error.Message + "); a second copy of the game running at once for this player would recover this copy's running session too early.");
                return null;
            }
        }

        /// <summary>
        /// Deletes the lock's file while the lock is still held, then unlocks and closes it (Windows deletes it at the close;
        /// a failed delete leaves it: the next start-up tries again). Every held lock is open with
        /// <see cref="FileShare.Delete"/> for this. Found by p36, as <see cref="DeleteDead"/> by p34: closed first, another
        /// copy's start-up (<see cref="OfGoneRuns"/>) could take the freed lock just before the file was unlinked under it,
        /// and a third start-up then found no lock file: both took the run for gone and recovered a record it left (one
        /// a full disk kept), which ended twice.
        /// </summary>
        internal void Release()
        {
            try { if (stream != null) Delete(path); }
            finally { Close(); }
        }

        private void Close()
        {
            lock (Held) Held.Remove(this);
            var open = stream;
            stream = null;
            if (open != null) open.Dispose();
        }

        /// <summary>Deletes a lock file (tests replace it with one that waits, to race another process).</summary>
        internal static Action<string> DeleteFile = File.Delete;

        private static void Delete(string path)
        {
            try { DeleteFile(path); }
            catch (Exception) { /* kept; removed by a later start-up */ }
        }

        /// <summary>
        /// Closes every lock this process holds, keeping the files, as the OS does when a process ends: a new process, or
        /// Play mode entered again without a domain reload (the last Play mode's runs are gone).
        /// </summary>
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        internal static void ResetStatics()
        {
            if (!Bridge.LastPlaySessionMayRemain) return;
            AliveLock[] all;
            lock (Held) all = Held.ToArray();
            foreach (var held in all) held.Close();
        }
    }
}
#endif
