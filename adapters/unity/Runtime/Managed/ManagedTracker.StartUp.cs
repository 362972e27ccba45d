// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// The tracker's start-up (core/tracker/tracker.ts <c>loaded</c>/<c>ready</c> and housekeeping.ts): the stored
    /// opt-out choice and the running records a killed run left are read once other players' expired sessions are
    /// deleted, the queue listed, each crashed session recovered (ended at its last checkpoint), then the first flush
    /// asked for. Nothing is sent before recovery is done: a session queued just before a crash must be found queued.
    /// A record whose run still lives (another copy of the game, its <see cref="AliveLock"/> held) is left to it.
    /// </summary>
    internal sealed partial class ManagedTracker
    {
        private async Task Load(Task previous)
        {
            // On the main thread (Unity's persistentDataPath throws elsewhere), before the first await.
            try { foreach (var dataPath in TrackerFiles.OtherDataPaths(Application.persistentDataPath)) otherFolders.Add(folder.Under(dataPath)); }
            catch (Exception) { /* none looked at */ }
            try { await previous; }
            catch (Exception) { /* reported when it ran */ }
            var setAside = new List<string>();
            try
            {
                await IoQueue.Run(() => TrackerFiles.SweepTemporary(folder));
                await AdoptOthers(); // before anything here is read
                // Other players' expired sessions (and the drops a kill left untold) before this player's crashed ones are
                // recovered, so a start-up's drops come in one order (core/tracker/tracker.ts ready; docs/decisions.md "Start-up
                // drops: expired, then recovered"; contract scenario start-up-drops-expired-then-recovered.json, found by seed
                // 7009, story 215: C# recovered first, TypeScript expired first). Before the dead runs' locks are claimed: a drop a
                // killed run left is told only once no one holds its run's lock (DroppedFiles.Claim). Guard reports what fails
                // (a full disk) and goes on, as Track did.
                await Guard(ExpireOtherPlayers(), () => { });
                bool? choice = null;
                crashed = await IoQueue.Run(() =>
                {
                    choice = RunningStore.ReadOptOut(folder, setAside);
                    return AliveLock.OfGoneRuns(folder, runId, RunningStore.ReadAll(folder, setAside), claimed);
                });
                if (choice.HasValue && !choiceMade) optedOut = choice.Value;
            }
            catch (Exception error) { StorageError(error); }
            foreach (var path in setAside) ReportSetAside(path);
            await queue.Sync(watch.Moved());
        }

        /// <summary>This player's folders under the other data paths Unity may give this app (<see cref="TrackerFiles.OtherDataPaths"/>).</summary>
        private readonly List<PlayerFolder> otherFolders = new List<PlayerFolder>();

        /// <summary>
        /// Moves what those folders hold into this one: at start-up, and before an erasure. A file a job, in slices
        /// (<see cref="IoQueue.RunEach"/>): found by p49 (managed-suspend.test.ts), a backlog of 400 files taken in by one file
        /// job held a pause's checkpoint (and every write of this run, asked for behind it) past the pause's 1 s wait, and a
        /// kill there lost the session the player had started meanwhile. What this run writes between two slices is its own
        /// (its running record; its lock excludes it from recovery), and its queue writes wait for the start-up. So do the
        /// deletes of this path's originals taken in and marked there, and of the marks here whose originals are gone (found
        /// by p50: 400 of either in one file job held the pause's checkpoint the same way).
        /// </summary>
        private async Task AdoptOthers()
        {
            foreach (var other in otherFolders)
            {
                var taken = await IoQueue.Run(() => TrackerFiles.TakenOf(folder, other));
                await IoQueue.RunEach(taken, TrackerFiles.DeleteTakenOne);
                var adoption = await IoQueue.Run(() => TrackerFiles.AdoptionOf(folder, other));
                if (adoption == null) continue;
                await IoQueue.RunEach(adoption.Files, file =>
                {
                    TrackerFiles.AdoptOne(adoption, file);
                    return true;
                });
                await IoQueue.Run(() => TrackerFiles.EndAdoption(adoption));
                await IoQueue.RunEach(adoption.Forget, TrackerFiles.TryDelete);
            }
        }

        private async Task StartUp()
        {
            await loaded;
            try
            {
                foreach (var record in crashed) await Recover(record);
            }
            finally
            {
                starting = false;
                if (claimed.Count > 0) await IoQueue.Run(() => { foreach (var dead in claimed) dead.Release(); });
            }
            RequestFlush(FlushTrigger.Startup);
        }

        /// <summary>A session a killed run left running: ended at its last checkpoint, then queued (or dropped).</summary>
        private async Task Recover(RunningRecord record)
        {
            if (disposed) return;
            if (queue.Has(record.SessionId))
            {
                await running.Remove(record.SessionId); // queued just before the process died
                return;
            }
            // The player whose folder holds it, as its file's name names the session (core/tracker/tracker.ts recover): a record
            // edited to name another player was sent as theirs, refused by the relay (another player's) with an auth error at
            // every retry (contract scenario kill-recovered-foreign-user.json).
            record.Fields["userId"] = sdk.UserId;
            var session = record.ToSession();
            sdk.Emit("session:end", Bridge.Args("sessionId", record.SessionId, "reason", "recovered", "session", session));
            var finished = Finish(session, record, null, recovered: true);
            Track(finished);
            await finished;
        }

        /// <summary>
        /// Deletes other players' sessions (queued, or running when the game died) older than the relay's default
        /// maximum session age, 30 days by the device's clock, each reported as <c>dropped</c> (<c>expired</c>) before it is deleted:
        /// core/tracker/housekeeping.ts; one with no start to age it by is dropped <c>invalid</c> at once. assumed: only players of
        /// this game and environment (the folders this run may see).
        /// </summary>
        private async Task ExpireOtherPlayers()
        {
            var oldest = DeviceClock.NowMs() - 30 * 86400000.0;
            var expiry = await IoQueue.Run(() => TrackerHousekeeping.ListOthers(folder, oldest, runId));
            // A file a job, in slices: a pause's checkpoint asked for meanwhile waits for one slice, not for a long backlog. What
            // a slice judged to go (renamed: DroppedFiles) is told to the game before its files are deleted
            // (in slices too): a kill at any point deletes nothing the game was not told of (a kill after a slice, before the
            // game was told, leaves the renamed files to the next start-up, which tells it; one after, tells it again).
            await IoQueue.RunEach(expiry.Files, file => TrackerHousekeeping.JudgeOne(expiry, file), async judged =>
            {
                var told = new List<TrackerHousekeeping.Drop>();
                foreach (var drop in judged)
                {
                    if (drop == null) continue;
                    Dropped(Json.Str(drop.Session, "sessionId"), drop.Reason, drop.Session);
                    told.Add(drop);
                }
                await IoQueue.RunEach(told, drop => DroppedFiles.DeleteTold(drop.Path));
            });
            foreach (var path in expiry.SetAside) ReportSetAside(path);
            if (expiry.Refused.Count > 0) StorageError(expiry.Refused[0]); // a full disk: reported (once), the sessions kept for the next start-up
        }
    }
}
#endif
