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

        /// <summary>
        /// The start of year 0, ms since the epoch: JavaScript's dates reach it (<c>toISOString</c> writes years 0 to 9999 with four
        /// digits, ECMA-262 "Date Time String Format"; others as ±YYYYYY, which no rule takes), .NET's <see cref="DateTime"/> starts
        /// at year 1. Year 0 is written and read as year 400 moved back 400 years: the Gregorian calendar repeats after them
        /// (146,097 days), and both are leap years. Before (found by p38), a recovered record starting in year 0 was dropped
        /// <c>invalid</c> where JavaScript sends it (contract scenario kill-recovered-year-zero.json).
        /// </summary>
        private const double YearZeroMs = -62167219200000d;
        private const double FourCenturiesMs = 146097d * 86400000d;

        /// <summary>
        /// <see cref="Iso"/> of ms since the epoch, as JavaScript's <c>new Date(ms).toISOString()</c>: from year 0, a fraction cut
        /// toward zero (ECMA-262 TimeClip, ToIntegerOrInfinity; before p38, floored: a stored start 1000.5 ms before 1970 was sent
        /// 1 ms earlier than JavaScript sends it, kill-recovered-year-zero.json); an impossible time gives a text the relay
        /// refuses (the session is dropped as invalid).
        /// </summary>
        internal static string IsoMs(double ms)
        {
            var whole = Math.Truncate(ms);
            var ticks = whole * TimeSpan.TicksPerMillisecond;
            if (!double.IsNaN(ticks) && ticks < -Epoch.Ticks && whole >= YearZeroMs) return "0000" + IsoMs(whole + FourCenturiesMs).Substring(4);
            if (double.IsNaN(ticks) || ticks < -Epoch.Ticks || ticks > DateTime.MaxValue.Ticks - Epoch.Ticks) return "invalid time " + ms;
            return Iso(Epoch.AddTicks((long)ticks));
        }

        /// <summary>Ms since the epoch of an ISO time (year 0 too, as <see cref="IsoMs"/> writes it); null when it is not one.</summary>
        internal static double? ParseMs(string iso)
        {
            if (iso == null) return null;
            bool yearZero;
            DateTime parsed;
            if (!DateTime.TryParse(Year400For0(iso, out yearZero), CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out parsed)) return null;
            return (parsed - Epoch).TotalMilliseconds - (yearZero ? FourCenturiesMs : 0);
        }

        /// <summary>
        /// core/schema/rules.ts <c>isIsoMillis</c>: exactly <c>YYYY-MM-DDTHH:mm:ss.sssZ</c> naming a real day, year 0 included
        /// (read as year 400: <see cref="YearZeroMs"/>).
        /// </summary>
        internal static bool IsIsoMillis(string text)
        {
            DateTime parsed;
            bool yearZero;
            return text.Length == 24 && DateTime.TryParseExact(Year400For0(text, out yearZero), "yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture, DateTimeStyles.None, out parsed);
        }

        /// <summary>
        /// An ISO time in year 0 (<c>0000-</c>) as the same day of year 400, which .NET can parse (<see cref="YearZeroMs"/>);
        /// any other text as it is. <paramref name="yearZero"/>: whether it was moved (the reader takes 400 years off again).
        /// </summary>
        private static string Year400For0(string iso, out bool yearZero)
        {
            yearZero = iso.StartsWith("0000-", StringComparison.Ordinal);
            return yearZero ? "0400" + iso.Substring(4) : iso;
        }
    }
}
#endif
