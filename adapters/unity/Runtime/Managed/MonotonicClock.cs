// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Diagnostics;

namespace GameCampaignSdk
{
    /// <summary>
    /// Time that really passes, in ms, for play time and timers: a <see cref="Stopwatch"/> (readable from any thread,
    /// unlike <c>Time.realtimeSinceStartupAsDouble</c>), which the player moving the device clock cannot change.
    /// Tests replace <see cref="NowMs"/>.
    /// </summary>
    internal static class MonotonicClock
    {
        private static readonly Stopwatch Watch = Stopwatch.StartNew();

        internal static Func<double> NowMs = () => Watch.Elapsed.TotalMilliseconds;
    }
}
#endif
