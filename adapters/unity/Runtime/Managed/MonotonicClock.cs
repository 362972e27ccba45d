// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// Time that really passes, in ms, for play time and timers: Unity's <c>Time.realtimeSinceStartupAsDouble</c>
    /// (real time since the player started, whatever <c>timeScale</c> is), which the player moving the device clock
    /// cannot change. Read on the main thread only, as Unity's API requires (the file worker never reads it). Tests
    /// replace <see cref="NowMs"/>.
    /// </summary>
    internal static class MonotonicClock
    {
        internal static Func<double> NowMs = () => Time.realtimeSinceStartupAsDouble * 1000;
    }
}
#endif
