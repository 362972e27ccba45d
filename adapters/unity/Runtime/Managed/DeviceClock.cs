// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Globalization;

namespace GameCampaignSdk
{
    /// <summary>The device's wall clock for the C# implementation (sessions, <c>sentAt</c>); tests replace it.</summary>
    internal static class DeviceClock
    {
        internal static Func<DateTime> UtcNow = () => DateTime.UtcNow;

        /// <summary>ISO 8601 in UTC with milliseconds, as the JavaScript SDK writes times (<c>2026-01-01T12:00:00.000Z</c>).</summary>
        internal static string Iso(DateTime utc)
        {
            return utc.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);
        }
    }
}
#endif
