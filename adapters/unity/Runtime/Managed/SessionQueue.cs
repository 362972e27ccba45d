// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>A queued session read back for sending, with how far the device clock had moved when it was queued.</summary>
    internal sealed class QueuedSession
    {
        internal string Key;
        internal Dictionary<string, object> Session;
        internal double Moved;
        /// <summary>Nested deeper than a request body can hold (<see cref="ManagedFlusher"/> drops it).</summary>
        internal bool Unsendable;
    }

    /// <summary>
    /// The finished sessions waiting for the relay (core/tracker/queue.ts): a file per session in the player's
    /// <c>queue/</c> folder, named <c>{sequence, 12 digits}-{sessionId}.json</c> so names sort oldest first, and an
    /// index of the names in memory. Enqueueing writes one file whatever the queue's length; nothing rewrites the
    /// whole queue; the files are only listed at start-up and read when sent. A session whose write failed (a full
    /// disk) is held in memory and still sent by this run. Over <c>maxQueue</c> the oldest not being sent is dropped
    /// (<c>overflow</c>). Index methods run on the main thread; file work on <see cref="IoQueue"/>.
    /// </summary>
    internal sealed class SessionQueue
    {
        private sealed class Entry
        {
            internal string SessionId;
            internal double Moved;
            /// <summary>Held in memory only: its write failed.</summary>
            internal Dictionary<string, object> Held;
        }

        private const int SeqDigits = 12;

        /// <summary>
        /// The session id a queue file's name holds (<c>{12-digit sequence}-{sessionId}</c>, <paramref name="stem"/> without its
        /// <c>.json</c>), or null for a name that is not a queue file's. One reading of the name for the queue, the expiry and
        /// the erasure of dropped files.
        /// </summary>
        internal static string SessionIdIn(string stem)
        {
            long seq;
            return stem.Length > SeqDigits + 1 && stem.IndexOf('-') == SeqDigits && long.TryParse(stem.Substring(0, SeqDigits), out seq) ? stem.Substring(SeqDigits + 1) : null;
        }

        private readonly PlayerFolder folder;
        private readonly int maxSize;
        private readonly Action<string, string, Dictionary<string, object>> dropped;
        private readonly Action<Exception> storageError;
        private readonly Action<string> leftMemory;
        /// <summary>Hears the path of each damaged file an eviction set aside (the tracker reports it).</summary>
        private readonly Action<string> setAside;
        private readonly string run;
        /// <summary>Queued sessions by file name.</summary>
        private readonly Dictionary<string, Entry> index = new Dictionary<string, Entry>(StringComparer.Ordinal);
        /// <summary>File names oldest first (names sort by their sequence number); names no longer in the index are skipped and compacted away.</summary>
        private List<string> order = new List<string>();
        /// <summary>
        /// Where the live names of <see cref="order"/> begin: names forgotten at the front (the oldest, evicted or sent) are
        /// passed once, not at every look for the oldest, so an eviction at a full queue costs O(1), not the evictions since the last compaction.
        /// </summary>
        private int head;
        private readonly HashSet<string> inFlight = new HashSet<string>();
        /// <summary>Names of the sessions held in memory: <see cref="PersistHeld"/> finds them without walking the index.</summary>
        private readonly HashSet<string> heldKeys = new HashSet<string>(StringComparer.Ordinal);
        /// <summary>Answered sessions whose delete failed: out of this run's queue; <see cref="DeleteAnswered"/> deletes them again and <see cref="Sync"/> does not list them back in (a file left at a later start is sent again, answered SKIPPED). The value: the id of a session held in memory, whose running record is removed again too.</summary>
        private readonly Dictionary<string, string> undeleted = new Dictionary<string, string>(StringComparer.Ordinal);
        private long nextSeq;

        /// <param name="dropped">(sessionId, reason, session) of a session evicted by overflow.</param>
        /// <param name="leftMemory">the id of a held session leaving the queue (its running record may go).</param>
        /// <param name="setAside">the path of a damaged file an eviction set aside.</param>
        /// <param name="run">the tracker run whose drops this queue marks (<see cref="DroppedFiles.MarkedPath"/>).</param>
        internal SessionQueue(PlayerFolder folder, int maxSize, Action<string, string, Dictionary<string, object>> dropped, Action<Exception> storageError, Action<string> leftMemory, Action<string> setAside, string run = null)
        {
            this.run = run;
            this.setAside = setAside;
            this.folder = folder;
            this.maxSize = maxSize;
            this.dropped = dropped;
            this.storageError = storageError;
            this.leftMemory = leftMemory;
        }

        internal int Count { get { return index.Count; } }

        /// <summary>Whether a session with this id is queued (a scan: asked only when recovering a crash).</summary>
        internal bool Has(string sessionId)
        {
            foreach (var entry in index.Values) if (entry.SessionId == sessionId) return true;
            return false;
        }

        /// <summary>Adds the stored sessions to the index (start-up): the folder listed and the names parsed off the main thread.</summary>
        internal async Task Sync(double moved)
        {
            List<KeyValuePair<string, string>> found;
            var lastSeq = -1L;
            await DeleteAnswered();
            try
            {
                found = await IoQueue.Run(() =>
                {
                    var parsed = new List<KeyValuePair<string, string>>();
                    foreach (var name in TrackerFiles.JsonFiles(folder.QueueDir))
                    {
                        var sessionId = SessionIdIn(name.Substring(0, name.Length - ".json".Length));
                        if (sessionId == null) continue; // not a queue file
                        parsed.Add(new KeyValuePair<string, string>(name, sessionId));
                        lastSeq = Math.Max(lastSeq, long.Parse(name.Substring(0, SeqDigits)));
                    }
                    return parsed;
                });
            }
            catch (Exception error)
            {
                storageError(error);
                return;
            }
            // The names found sort ordinally (JsonFiles) and so does the order so far: the order stays sorted unless a name
            // added sorts before the last one there (one an earlier Sync or this run already indexed, whether or not it is
            // found again now: another copy of the game queued an older one meanwhile).
            var last = order.Count > head ? order[order.Count - 1] : null;
            string firstAdded = null;
            foreach (var pair in found)
            {
                if (index.ContainsKey(pair.Key) || undeleted.ContainsKey(pair.Key)) continue;
                index[pair.Key] = new Entry { SessionId = pair.Value, Moved = moved };
                order.Add(pair.Key);
                if (firstAdded == null) firstAdded = pair.Key;
            }
            if (firstAdded != null && last != null && string.CompareOrdinal(firstAdded, last) < 0)
            {
                order = new List<string>(index.Keys); // merged with the sessions already indexed
                order.Sort(StringComparer.Ordinal);
                head = 0;
            }
            nextSeq = Math.Max(nextSeq, lastSeq + 1);
        }

        /// <summary>Tests only: counts the names <see cref="Keys"/> looks at (forgotten ones included), to show what a look for the oldest costs.</summary>
        internal static long NamesVisited;

        /// <summary>The queued file names, oldest first.</summary>
        private IEnumerable<string> Keys()
        {
            while (head < order.Count && !index.ContainsKey(order[head]))
            {
                head++;
                NamesVisited++;
            }
            for (var i = head; i < order.Count; i++)
            {
                NamesVisited++;
                if (index.ContainsKey(order[i])) yield return order[i];
            }
        }

        /// <summary>The sessions whose write is under way (<see cref="Enqueue"/>): each completes once its session is in the index.</summary>
        private readonly List<Task> indexing = new List<Task>();

        /// <summary>
        /// Completes once every session whose write is under way now is in the index (written, or held in memory): a flush asked
        /// for now lists it (<see cref="ManagedFlusher"/>), as core/tracker/queue.ts indexes a session before its write ends. Found by p52
        /// (generated.test.ts, managed-suspend.test.ts): a desktop player on a full disk who stopped and switched window in one
        /// frame had the background flush list the queue before the refused write's continuation held the session, so
        /// nothing was sent where JavaScript sent it.
        /// </summary>
        internal Task Indexed()
        {
            return indexing.Count == 0 ? Task.FromResult(0) : Task.WhenAll(indexing.ToArray());
        }

        /// <summary>Persists one finished session (one file) and evicts the oldest over the cap. True when it was written.</summary>
        internal async Task<bool> Enqueue(Dictionary<string, object> session, double moved)
        {
            var sessionId = Json.Str(session, "sessionId");
            var key = (nextSeq++).ToString("D" + SeqDigits) + "-" + sessionId + ".json";
            var entry = new Entry { SessionId = sessionId, Moved = moved };
            var path = Path.Combine(folder.QueueDir, key);
            // The evictions this session makes room for are asked for with its write, in this main-thread step: a stop as the
            // app pauses has them done when OnApplicationPause returns (it waits for the file work asked for), the files
            // renamed for the next start-up to tell if the OS kills the paused app. Found by p51 (contract scenario
            // overflow-stop-and-leave-killed.json): asked for once the write was done, on a main-thread step a paused app never
            // runs, none was done, and the next launch delivered the session JavaScript had dropped.
            var evictions = new List<Task>();
            EvictOver(1, evictions);
            var indexed = new TaskCompletionSource<int>();
            indexing.Add(indexed.Task);
            try { await IoQueue.Run(() => TrackerFiles.Write(path, session)); }
            catch (Exception error)
            {
                entry.Held = session;
                heldKeys.Add(key);
                storageError(error);
            }
            index[key] = entry;
            order.Add(key);
            indexing.Remove(indexed.Task);
            indexed.SetResult(0);
            // Storage took this write: it may take those it refused earlier (nothing to do while nothing is held).
            if (entry.Held == null && heldKeys.Count > 0) await PersistHeld();
            EvictOver(0, evictions); // this one, when all older ones are being sent; or what a concurrent enqueue left over
            await Task.WhenAll(evictions);
            return entry.Held == null;
        }

        /// <summary>Evicts the oldest sessions not being sent while the queue, with <paramref name="coming"/> more, is over its cap.</summary>
        private void EvictOver(int coming, List<Task> evictions)
        {
            while (index.Count + coming > maxSize)
            {
                string oldest = null;
                foreach (var candidate in Keys())
                {
                    if (inFlight.Contains(candidate)) continue;
                    oldest = candidate;
                    break;
                }
                if (oldest == null) break;
                evictions.Add(Evict(oldest));
            }
        }

        /// <summary>
        /// Forgets the oldest session over the cap at once (so concurrent evictions pick different ones), then deletes it and
        /// reports it <c>overflow</c>, as core/tracker/queue.ts <c>evict</c> does: a file no longer there was sent and deleted
        /// by another copy of the game on this folder meanwhile (the relay has it): not reported; a delete that fails is a
        /// storage error, not a drop: the file stays and the next start-up sends it. A damaged file (a power loss cut its
        /// write short) is set aside and reported as any unreadable file is (<c>error</c>, kind <c>storage</c>), not
        /// <c>dropped</c>: no one could read the session it held (before, it was reported <c>overflow</c> with no session and
        /// the damage went unreported; found by p27, scenario storage-truncated-overflow.json). The file is renamed, not
        /// deleted, until the game was told (<see cref="DroppedFiles"/>): found by p51 (managed-suspend.test.ts), a pause
        /// while the eviction's file job ran waited for it, and a kill there (no main-thread step runs while paused) lost
        /// the session and its report both.
        /// </summary>
        private async Task Evict(string key)
        {
            var entry = index[key];
            Forget(key);
            try
            {
                var path = Path.Combine(folder.QueueDir, key);
                var damaged = new List<string>();
                var gone = false;
                string marked = null;
                var session = entry.Held ?? await IoQueue.Run(() =>
                {
                    var read = TrackerFiles.Read(path, QueuedFile, damaged);
                    gone = read == null;
                    if (!gone) marked = DroppedFiles.Mark(path, "overflow", run);
                    return read;
                });
                foreach (var aside in damaged) setAside(aside);
                if (gone) return;
                dropped(entry.SessionId, "overflow", session);
                await IoQueue.Run(() => DroppedFiles.DeleteTold(marked));
            }
            catch (Exception error)
            {
                storageError(error);
            }
        }

        private void Forget(string key)
        {
            Entry entry;
            if (!index.TryGetValue(key, out entry)) return;
            index.Remove(key);
            heldKeys.Remove(key);
            if (order.Count - head > 2 * index.Count + 64)
            {
                order = new List<string>(Keys()); // forgotten names compacted away, amortized O(1)
                head = 0;
            }
            else if (head > index.Count + 64)
            {
                order.RemoveRange(0, head); // the passed front, dropped as often as the list halves: amortized O(1)
                head = 0;
            }
            if (entry.Held != null) leftMemory(entry.SessionId);
        }

        /// <summary>Up to <paramref name="limit"/> keys, oldest first, leaving out <paramref name="skip"/>.</summary>
        internal List<string> Oldest(int limit, HashSet<string> skip)
        {
            var keys = new List<string>();
            foreach (var key in Keys())
            {
                if (keys.Count >= limit) break;
                if (!skip.Contains(key)) keys.Add(key);
            }
            return keys;
        }

        /// <summary>
        /// Reads queued sessions (off the main thread) and marks them in flight; one evicted or erased while it was read
        /// is left out. A file that cannot be read is set aside and forgotten; <paramref name="setAside"/> hears each (the
        /// tracker reports it).
        /// </summary>
        internal async Task<List<QueuedSession>> Read(List<string> keys, Action<string> setAside)
        {
            var wanted = new List<KeyValuePair<string, Entry>>();
            foreach (var key in keys)
            {
                Entry entry;
                if (index.TryGetValue(key, out entry)) wanted.Add(new KeyValuePair<string, Entry>(key, entry));
            }
            var damaged = new List<string>();
            // In slices (IoQueue.RunEach): a pause's checkpoint asked for while a thousand files are read is written between two.
            var sessions = await IoQueue.RunEach(wanted, pair => pair.Value.Held ?? TrackerFiles.Read(Path.Combine(folder.QueueDir, pair.Key), QueuedFile, damaged));
            var found = new List<QueuedSession>();
            for (var i = 0; i < wanted.Count; i++)
            {
                var key = wanted[i].Key;
                Entry now;
                // Evicted (or erased) while it was read: it was reported dropped, so it is not sent (before, it was
                // delivered and reported dropped both; core/tracker/queue.ts read looks its entry up after the read too).
                if (!index.TryGetValue(key, out now) || now != wanted[i].Value) continue;
                if (sessions[i] == null) Forget(key);
                else
                {
                    inFlight.Add(key);
                    found.Add(new QueuedSession { Key = key, Session = sessions[i], Moved = wanted[i].Value.Moved });
                }
            }
            foreach (var path in damaged) setAside(path);
            return found;
        }

        /// <summary>A queue file's session: an object with a sessionId (anything else is damage).</summary>
        private static Dictionary<string, object> QueuedFile(object node)
        {
            var session = Json.Obj(node);
            return session != null && Json.Str(session, "sessionId") != null ? session : null;
        }

        /// <summary>
        /// Writes again the sessions held in memory (their write failed), oldest first, stopping at the first refused
        /// again: storage that took a write since (a full disk with room again) keeps them past this run
        /// (core/tracker/queue.ts, persistHeld). A session being sent is left to its answer. In slices
        /// (<see cref="IoQueue.RunEach"/>), so a pause's checkpoint asked for meanwhile is written after one slice, not after
        /// a hundred held sessions: found by p49 (managed-suspend.test.ts), a checkpoint's write of them all in one file job
        /// held the pause's checkpoint past its 1 s wait, and a kill lost the play since the checkpoint before. When
        /// <paramref name="pausing"/>, one file job for them all instead, asked for before this first yields: going to the
        /// background waits for the file work asked for until then (its checkpoint first), and a paused phone runs no
        /// main-thread turn to ask for a next slice (the OS may kill it there). Found by p47: a write each, the next asked
        /// for once the last was done, wrote only the first held session before the pause. A session written by two of
        /// these at once (a checkpoint's slices, then a pause's) is written twice and leaves memory once.
        /// </summary>
        internal async Task PersistHeld(bool pausing = false)
        {
            var keys = new List<string>(heldKeys);
            keys.Sort(StringComparer.Ordinal);
            var held = new List<KeyValuePair<string, Entry>>();
            foreach (var key in keys)
            {
                Entry entry;
                if (!index.TryGetValue(key, out entry) || entry.Held == null || inFlight.Contains(key)) continue;
                held.Add(new KeyValuePair<string, Entry>(key, entry));
            }
            if (held.Count == 0) return;
            var refused = false; // read and written on the worker only, one slice after the other
            Func<KeyValuePair<string, Entry>, bool> write = pair =>
            {
                if (refused) return false;
                try
                {
                    TrackerFiles.Write(Path.Combine(folder.QueueDir, pair.Key), pair.Value.Held);
                    return true;
                }
                catch (Exception)
                {
                    refused = true; // still refused: reported when it first failed
                    return false;
                }
            };
            var written = pausing ? await IoQueue.Run(() => held.ConvertAll(pair => write(pair))) : await IoQueue.RunEach(held, write);
            for (var i = 0; i < held.Count; i++)
            {
                if (!written[i]) continue;
                var key = held[i].Key;
                var entry = held[i].Value;
                Entry now;
                if (!index.TryGetValue(key, out now) || now != entry)
                {
                    // Sent and removed while this write ran: the copy just written goes too (one left is answered SKIPPED).
                    var path = Path.Combine(folder.QueueDir, key);
                    try { await IoQueue.Run(() => TrackerFiles.Delete(path)); }
                    catch (Exception) { }
                    continue;
                }
                if (entry.Held == null) continue; // left memory by the other write of it
                heldKeys.Remove(key);
                entry.Held = null;
                leftMemory(entry.SessionId);
            }
        }

        /// <summary>
        /// Deletes again the answered sessions whose delete failed (at start-up and each flush), until storage takes it. In
        /// slices, as <see cref="Remove"/>: found by p49 (managed-suspend.test.ts), 400 deletes in one file job (a backlog
        /// answered while storage refused deletes) held a pause's checkpoint past its 1 s wait.
        /// </summary>
        internal async Task DeleteAnswered()
        {
            if (undeleted.Count == 0) return;
            var retry = new List<string>(undeleted.Keys);
            var deleted = await IoQueue.RunEach(retry, key =>
            {
                try
                {
                    TrackerFiles.Delete(Path.Combine(folder.QueueDir, key));
                    return true;
                }
                catch (Exception) { return false; } // still refused: reported when it first failed
            });
            for (var i = 0; i < retry.Count; i++)
            {
                string heldId;
                if (!deleted[i] || !undeleted.TryGetValue(retry[i], out heldId)) continue; // another flush's retry took it meanwhile
                if (heldId != null) leftMemory(heldId);
                undeleted.Remove(retry[i]);
            }
        }

        /// <summary>Ends the in-flight mark of keys that stay queued.</summary>
        internal void Release(IEnumerable<string> keys)
        {
            foreach (var key in keys) inFlight.Remove(key);
        }

        /// <summary>
        /// Deletes sessions that left the queue; returns the keys that left it. A failed delete stays queued (sent again,
        /// de-duplicated by the service), unless <paramref name="settled"/>: the relay answered for it (acknowledged or
        /// refused), so this run neither sends it again nor reports it twice (as in JavaScript: a full disk).
        /// </summary>
        /// <param name="dropReason">
        /// Given for sessions the relay refused: each file is renamed (<see cref="DroppedFiles.Mark"/>), not deleted, and
        /// <see cref="DeleteDropped"/> deletes it once the game was told.
        /// </param>
        internal async Task<HashSet<string>> Remove(List<string> keys, bool settled = false, string dropReason = null)
        {
            var removed = new HashSet<string>();
            if (keys.Count == 0) return removed;
            var failures = new List<Exception>();
            var undeletable = new List<string>();
            // In slices, as Read: a thousand deletes do not hold a pause's checkpoint back.
            var outcomes = await IoQueue.RunEach(keys, key =>
            {
                try
                {
                    if (dropReason == null) TrackerFiles.Delete(Path.Combine(folder.QueueDir, key));
                    else DroppedFiles.Mark(Path.Combine(folder.QueueDir, key), dropReason, run);
                    return true;
                }
                catch (Exception error)
                {
                    failures.Add(error);
                    if (settled) undeletable.Add(key);
                    return false;
                }
            });
            var deleted = new List<string>();
            for (var i = 0; i < keys.Count; i++) if (outcomes[i]) deleted.Add(keys[i]);
            foreach (var key in keys) inFlight.Remove(key);
            foreach (var key in undeletable) undeleted[key] = index.ContainsKey(key) && index[key].Held != null ? index[key].SessionId : null;
            deleted.AddRange(undeletable);
            foreach (var key in deleted)
            {
                Forget(key);
                removed.Add(key);
            }
            if (failures.Count > 0) storageError(failures[0]);
            return removed;
        }

        /// <summary>Deletes the file of a session <see cref="Remove"/> dropped for <paramref name="reason"/>, once the game was told (a failed delete: told again at the next start-up).</summary>
        internal Task DeleteDropped(string key, string reason)
        {
            var marked = DroppedFiles.MarkedPath(Path.Combine(folder.QueueDir, key), reason, run);
            return IoQueue.Run(() => DroppedFiles.DeleteTold(marked));
        }

        /// <summary>Deletes every queued session (the player asked); returns the ids deleted.</summary>
        internal async Task<List<string>> Erase(double moved)
        {
            await Sync(moved);
            var ids = new Dictionary<string, string>();
            foreach (var pair in index) ids[pair.Key] = pair.Value.SessionId;
            var keys = new List<string>(Keys());
            var removed = await Remove(keys);
            var erased = new List<string>();
            foreach (var key in keys) if (removed.Contains(key)) erased.Add(ids[key]);
            return erased;
        }
    }
}
#endif
