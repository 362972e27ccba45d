// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Globalization;

namespace GameCampaignSdk
{
    /// <summary>The device's wall clock for the C# implementation (session starts, <c>sentAt</c>); tests replace <see cref="UtcNow"/>.</summary>
    internal static class DeviceClock
    {
        private static readonly DateTime Epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        internal static Func<DateTime> UtcNow = () => DateTime.UtcNow;

        /// <summary>The wall clock in ms since the Unix epoch (JavaScript's <c>Date.now()</c>).</summary>
        internal static double NowMs() { return (UtcNow().ToUniversalTime() - Epoch).TotalMilliseconds; }

        /// <summary>ISO 8601 in UTC with milliseconds, as the JavaScript SDK writes times (<c>2026-01-01T12:00:00.000Z</c>).</summary>
        internal static string Iso(DateTime utc)
        {
            return utc.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);
        }

        /// <summary><see cref="Iso"/> of ms since the epoch; an impossible time gives a text the relay refuses (the session is dropped as invalid).</summary>
        internal static string IsoMs(double ms)
        {
            var ticks = Math.Floor(ms) * TimeSpan.TicksPerMillisecond;
            if (double.IsNaN(ticks) || ticks < -Epoch.Ticks || ticks > DateTime.MaxValue.Ticks - Epoch.Ticks) return "invalid time " + ms;
            return Iso(Epoch.AddTicks((long)ticks));
        }

        /// <summary>Ms since the epoch of an ISO time; null when it is not one.</summary>
        internal static double? ParseMs(string iso)
        {
            DateTime parsed;
            if (iso == null || !DateTime.TryParse(iso, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out parsed)) return null;
            return (parsed - Epoch).TotalMilliseconds;
        }
    }
}
#endif
