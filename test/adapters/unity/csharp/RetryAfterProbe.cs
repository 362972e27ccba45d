// Reads each Retry-After value of test/core/http/retry-after-cases.json with the managed tracker's RetryAfter.Ms at
// the table's "now" (the device clock set to it) and prints [[value, ms or null], ...] as one JSON array, which
// test/adapters/unity/retry-after.test.ts holds against the table (the one the JavaScript SDK follows too).
// args: the table's path.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using GameCampaignSdk;

internal static class RetryAfterProbe
{
    private static int Main(string[] args)
    {
        var table = (Dictionary<string, object>)Json.Parse(File.ReadAllText(args[0]));
        var now = DateTime.Parse((string)table["now"], CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal);
        DeviceClock.UtcNow = () => now;
        var read = new List<object>();
        foreach (List<object> row in (List<object>)table["cases"])
        {
            var value = (string)row[0];
            read.Add(new List<object> { value, RetryAfter.Ms(value) });
        }
        Console.WriteLine(Json.Serialize(read));
        return ProbeExit.Now(0);
    }
}
