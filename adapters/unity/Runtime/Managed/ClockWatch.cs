// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;

namespace GameCampaignSdk
{
    /// <summary>
    /// Notices the device's wall clock being moved while the game runs (core/tracker/clock-watch.ts): wall minus
    /// monotonic time stays constant while time simply passes; when it jumps by 1 s or more, someone moved the wall
    /// clock, and sessions stamped before the jump are moved with it, so the relay (which dates sessions by its own
    /// clock minus <c>sentAt</c>) dates them right. assumed, as in JavaScript: a forward jump across a stay in the
    /// background is the device sleeping, not a clock change.
    /// </summary>
    internal sealed class ClockWatch
    {
        /// <summary>Jumps under this are drift and timer jitter, ms.</summary>
        private const double ClockJumpMs = 1000;

        private double last;
        private double total;
        private bool asleep;

        internal ClockWatch() { last = Frame(); }

        private static double Frame() { return DeviceClock.NowMs() - MonotonicClock.NowMs(); }

        /// <summary>How far the wall clock has been moved since this tracker started, ms (observing it now).</summary>
        internal double Moved()
        {
            var current = Frame();
            var jump = current - last;
            if (Math.Abs(jump) >= ClockJumpMs || asleep)
            {
                if (Math.Abs(jump) >= ClockJumpMs && !(asleep && jump > 0)) total += jump;
                last = current;
            }
            return total;
        }

        /// <summary>The game went to the background (true) or came back (false).</summary>
        internal void Background(bool inBackground)
        {
            Moved(); // coming back, the jump across the background is judged while still asleep
            asleep = inBackground;
        }
    }
}
#endif
