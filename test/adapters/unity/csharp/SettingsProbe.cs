// The settings asset (GameCampaignSettings) as a game uses it: made by Unity (ScriptableObject.CreateInstance),
// filled in the Inspector (pasted values with spaces), then Init for a player. Prints, as JSON, the arguments each
// Init sent over the bridge, or the error it failed with. Compiled with HandNative.cs.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

internal static class SettingsProbe
{
    private static int Main()
    {
        var native = new HandNative();
        Bridge.Native = native;
        var report = new Dictionary<string, object>();

        var live = ScriptableObject.CreateInstance<GameCampaignSettings>();
        live.clientKey = "  ck_live:secret\n";
        live.relayUrl = "https://game.example/campaign ";
        live.environment = GameCampaignEnvironment.Live;
        live.campaignId = "cmp_spring_festival";
        live.isTest = false;
        report["live"] = Sent(native, live.Init("player-1", new Dictionary<string, string> { { "authorization", "Bearer t" } }));

        var emulator = ScriptableObject.CreateInstance<GameCampaignSettings>();
        emulator.clientKey = "ck:secret";
        emulator.relayUrl = "http://127.0.0.1:8788/campaign";
        emulator.baseUrl = "http://127.0.0.1:8787";
        emulator.creatorKey = "";
        emulator.isTest = true;
        report["emulator"] = Sent(native, emulator.Init("player-2"));

        var empty = ScriptableObject.CreateInstance<GameCampaignSettings>();
        empty.clientKey = "   ";
        empty.relayUrl = "https://game.example/campaign";
        report["emptyKey"] = Sent(native, empty.Init("player-3"));
        report["defaultEnvironment"] = empty.ToOptions("p").Environment;

        Console.WriteLine(Json.Serialize(report));
        return ProbeExit.Now(0);
    }

    private static object Sent(HandNative native, Task init)
    {
        if (init.IsFaulted)
        {
            var error = (GameCampaignException)init.Exception.InnerException;
            return error.Code + ": " + error.Message;
        }
        var call = native.Calls[native.Calls.Count - 1];
        native.Answer(call.Key, null);
        return call.Value;
    }
}
