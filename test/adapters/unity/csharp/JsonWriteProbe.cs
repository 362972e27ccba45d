// Writes the C# values a Unity game passes as session metadata (Tracker.Start's metadata, on every platform: WebGL's
// bridge and the managed tracker write it with Json.Serialize) under the device culture named first, and prints the
// JSON text, which test/adapters/unity/json.test.ts holds to what the game meant.
// args: the culture.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using GameCampaignSdk;

internal static class JsonWriteProbe
{
    private static int Main(string[] args)
    {
        Thread.CurrentThread.CurrentCulture = new CultureInfo(args[0]);
        var metadata = new Dictionary<string, object>
        {
            { "speed", 0.1f }, { "ratio", 1.1f }, { "half", -0.5f }, { "tiny", 1e-7f }, { "big", 3.4028235e38f },
            { "whole", 60f }, { "double", 0.1 }, { "decimal", 2.5m }, { "level", 3 }, { "coins", 12345678901L },
        };
        Console.WriteLine(Json.Serialize(metadata));
        return ProbeExit.Now(0);
    }
}
