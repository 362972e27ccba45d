// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System.Collections.Generic;

namespace GameCampaignSdk
{
    /// <summary>
    /// The tracker in the background (core/tracker/tracker.ts, lifecycle): play time pauses and the running session is
    /// checkpointed before <c>OnApplicationPause</c> returns; a stay shorter than <c>backgroundTimeoutMs</c> resumes the
    /// same session; a longer one ends it when it went there (<c>background-timeout</c>, whether its timer fires in the
    /// background or the return finds it due), and the return starts its continuation: a new session with the same
    /// campaign, creator and metadata (<c>session:start</c> with <c>continues</c>), its play time counted from the return.
    /// The industry's session time-out: a player back after a long absence is tracked without the game calling
    /// <c>Start</c> again. A game that called <c>Start</c>, <c>Stop</c>, <c>SetOptOut(true)</c>, <c>DeleteStoredData</c>
    /// or <c>Dispose</c> since the time-out gets none; nor does an app killed in the background (no return: the next
    /// start-up recovers the session).
    /// </summary>
    internal sealed partial class ManagedTracker
    {
        /// <summary>How long going to the background waits for the checkpoint's write, ms.</summary>
        internal static int BackgroundWaitMs = 1000;

        /// <summary>
        /// The fields (sessionId, campaignId, creatorKey, metadata) of the session the background time-out ended, until
        /// the return continues it or the game's own call forgets it; null otherwise. One continuation per ended session.
        /// </summary>
        private Dictionary<string, object> timedOut;

        /// <summary>Stops play time, checkpoints, and ends the session if the background outlasts the time-out.</summary>
        private void Pause(SessionClock paused, double now)
        {
            if (!paused.Pause(now)) return;
            StopTimers();
            Track(running.Save(paused.Record(now)));
            backgroundTimer = ManagedTimers.Schedule(settings.BackgroundTimeoutMs, () =>
            {
                if (clock == paused) TimeOut();
            });
        }

        /// <summary>Ends the paused session at its pause (<c>background-timeout</c>) and keeps what its continuation needs.</summary>
        private void TimeOut()
        {
            timedOut = End("background-timeout", null).Fields;
        }

        /// <summary>The game's own call (<c>Start</c>, <c>Stop</c>, <c>SetOptOut(true)</c>, erasure, dispose): no continuation on return.</summary>
        private void ForgetContinuation()
        {
            timedOut = null;
        }

        private void ToBackground()
        {
            if (disposed || inBackground) return;
            inBackground = true;
            watch.Background(true);
            Cancel(flushTimer);
            if (clock != null) Pause(clock, Now());
            // A session held in memory (its write failed) is written now if storage takes it (all in one file job, after the
            // checkpoint): the OS may kill the app out here.
            Track(queue.PersistHeld(pausing: true));
            // Android and iOS may kill the paused app without another message, so the checkpoint asked for just now is
            // written before OnApplicationPause returns (bounded: a slow disk is not waited out), and only it: the
            // background flush's reads (a thousand files at a long queue) are asked for after the wait, not waited for, and
            // a flush reading (or deleting) them already is ahead of it by one slice only (IoQueue.RunEach).
            // assumed: up to 1 s of the pause is the OS's to give (Android's onPause, iOS's willResignActive).
            IoQueue.WaitFor(IoQueue.Mark, BackgroundWaitMs);
            RequestFlush(FlushTrigger.Background);
        }

        private void ToForeground()
        {
            if (disposed || !inBackground) return;
            inBackground = false;
            watch.Background(false);
            FlushEvery();
            ReadChoice(); // another copy of the game may have switched the player's choice meanwhile
            if (clock != null)
            {
                var now = Now();
                if (clock.PausedFor(now) >= settings.BackgroundTimeoutMs) TimeOut();
                else
                {
                    Cancel(backgroundTimer);
                    clock.Resume(now);
                    CheckpointEvery(clock.Record(now).PlayedMs);
                }
            }
            Continue();
            // No flush of its own (as in JavaScript, and the contract's background-timeout scenario): what the background
            // flush could not send is sent on resume by the retry timer that fell due meanwhile (ManagedLifecycle runs
            // due timers as the game resumes), by the first frame seeing the network back, or by the flush interval.
        }

        /// <summary>
        /// Back in the foreground after a background time-out: the ended session's continuation starts now (nothing of
        /// the ended session's play carried, not even its part second). assumed: also when the ended session was
        /// dropped as too short (it was still the session the player was in).
        /// </summary>
        private void Continue()
        {
            var ended = timedOut;
            timedOut = null;
            if (ended == null || optedOut || clock != null) return;
            Begin(Json.Str(ended, "campaignId"), Json.Str(ended, "creatorKey"), Json.Field(ended, "metadata"), Json.Str(ended, "sessionId"));
        }
    }
}
#endif
