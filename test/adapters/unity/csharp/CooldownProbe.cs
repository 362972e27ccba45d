// Reads each boost-change answer of the table test/adapters/unity/cooldown.test.ts passes (status and message) with the
// managed SDK's HttpExchange.ErrorOf, under the device culture named first (a Turkish or German phone), and prints
// [[message, error name, days remaining or null], ...] as one JSON array.
// args: the culture, then the table as JSON ([[status, message], ...]).
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using GameCampaignSdk;

internal static class CooldownProbe
{
    private static int Main(string[] args)
    {
        // Before the SDK's first use: what the device's locale sets for the player's main thread.
        Thread.CurrentThread.CurrentCulture = Thread.CurrentThread.CurrentUICulture = new CultureInfo(args[0]);
        var read = new List<object>();
        foreach (List<object> row in (List<object>)Json.Parse(args[1]))
        {
            var body = new Dictionary<string, object> { { "code", "BAD_REQUEST" }, { "message", row[1] } };
            var error = HttpExchange.ErrorOf(new HttpAnswer { Status = (long)(double)row[0], Body = body }, cooldown: true, relay: true);
            read.Add(new List<object> { row[1], error.ErrorName, error.DaysRemaining.HasValue ? (object)(double)error.DaysRemaining.Value : null });
        }
        Console.WriteLine(Json.Serialize(read));
        return ProbeExit.Now(0);
    }
}
