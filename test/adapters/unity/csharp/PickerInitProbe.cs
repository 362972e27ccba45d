// A player switch in a WebGL game: GameCampaign.Init for player 1, a creator picker opened, then Init for player 2
// (which replaces the facade, and with it the last player's pickers, on the JavaScript side). Prints, as JSON, what the
// old picker's calls do after that and which calls reached the bridge. Compiled with HandNative.cs.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using GameCampaignSdk;

internal static class PickerInitProbe
{
    private static int Main()
    {
        var native = new HandNative();
        Bridge.Native = native;
        var report = new Dictionary<string, object>();
        Init(native, "player-1");
        var opening = CreatorPicker.Create("cmp_spring_festival");
        native.Answer(Last(native), new Dictionary<string, object> { { "picker", 1.0 }, { "state", new Dictionary<string, object>() } });
        var picker = opening.Result;
        var changes = 0;
        picker.Changed += state => changes++;
        Init(native, "player-2");
        report["search"] = Attempt(() => picker.Search("Nova"));
        report["confirm"] = Attempt(() => picker.Confirm());
        native.Push(new Dictionary<string, object> { { "event", "picker:change" }, { "picker", 1.0 }, { "data", new Dictionary<string, object>() } });
        report["changesAfterInit"] = (double)changes;
        var methods = new List<object>();
        foreach (var call in native.Calls) methods.Add(call.Value["method"]);
        report["methods"] = methods;
        Console.WriteLine(Json.Serialize(report));
        return ProbeExit.Now(0);
    }

    private static void Init(HandNative native, string userId)
    {
        var init = GameCampaign.Init(new GameCampaignOptions { ClientKey = "ck:secret", UserId = userId, RelayUrl = "https://game.example/campaign" });
        native.Answer(Last(native), null);
        init.Wait();
    }

    private static int Last(HandNative native) { return native.Calls[native.Calls.Count - 1].Key; }

    /// <summary>The exception a call threw or its Task failed with; "completed" when it did neither.</summary>
    private static string Attempt(Func<Task> call)
    {
        try
        {
            var task = call();
            return task.IsFaulted ? task.Exception.InnerException.GetType().Name : "completed";
        }
        catch (Exception error) { return error.GetType().Name; }
    }
}
