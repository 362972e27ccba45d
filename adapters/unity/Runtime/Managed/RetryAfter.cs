// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Globalization;
using System.Text.RegularExpressions;

namespace GameCampaignSdk
{
    /// <summary>
    /// <c>Retry-After</c> by the JavaScript SDK's rule (core/http/backoff.ts <c>parseRetryAfter</c>), so both clients
    /// wait the same: RFC 9110's delay-seconds (digits; a fraction is read too) or an IMF-fixdate (one past: no
    /// wait). Any other value asks for nothing: the caller's own backoff applies.
    /// </summary>
    internal static class RetryAfter
    {
        private static readonly Regex Seconds = new Regex(@"^[0-9]+(\.[0-9]+)?\z", RegexOptions.CultureInvariant);
        private static readonly DateTime Epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        /// <summary>The wait asked for in ms; null when absent or not a value of the rule.</summary>
        internal static double? Ms(string header)
        {
            var value = header == null ? "" : header.Trim(' ', '\t'); // as fetch trims a field value
            if (Seconds.IsMatch(value)) return double.Parse(value, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture) * 1000;
            DateTime date;
            // An IMF-fixdate is exactly what "R" writes back: no other form, nothing out of range, the right weekday.
            if (!DateTime.TryParseExact(value, "R", CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal, out date) || date.ToString("R", CultureInfo.InvariantCulture) != value) return null;
            return Math.Max(0, (date - Epoch).TotalMilliseconds - DeviceClock.NowMs());
        }
    }
}
#endif
