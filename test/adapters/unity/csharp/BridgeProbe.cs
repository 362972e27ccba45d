// Runs the package's C# (compiled with mcs, run with mono) against answers the jslib really produced: the
// Node test passes them in a JSON file and reads back what C# made of them, as one JSON object on stdout.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading.Tasks;
using GameCampaignSdk;

internal sealed class ScriptedNative : INative
{
    private readonly Dictionary<string, object> answers;
    private MessageCallback callback;
    public readonly List<object> Sent = new List<object>();

    public ScriptedNative(Dictionary<string, object> answers) { this.answers = answers; }

    public void Register(MessageCallback callback) { this.callback = callback; }

    public void Call(int requestId, string method, string argsJson)
    {
        Sent.Add(new Dictionary<string, object> { { "method", method }, { "args", Json.Parse(argsJson) } });
        var answer = new Dictionary<string, object>((Dictionary<string, object>)answers[method]);
        answer["id"] = (double)requestId;
        callback(Json.Serialize(answer));
    }

    public void Push(object envelope) { callback(Json.Serialize(envelope)); }
}

internal static class BridgeProbe
{
    private static int Main(string[] args)
    {
        var input = (Dictionary<string, object>)Json.Parse(File.ReadAllText(args[0]));
        var report = new Dictionary<string, object>();

        // Outside a WebGL player (no UNITY_WEBGL define): the C# implementation, never DllNotFoundException.
        report["supported"] = GameCampaign.IsSupported;
        report["editor"] = Describe(Catch(Tracker.Start()));
        // Disposing is idempotent: before Init, and again (OnDestroy, then OnApplicationQuit), it completes.
        report["disposeBeforeInit"] = Describe(Catch(GameCampaign.Dispose()));

        report["invalidOptions"] = Describe(Catch(GameCampaign.Init(new GameCampaignOptions { UserId = "p", RelayUrl = "/campaign" })));

        var native = new ScriptedNative((Dictionary<string, object>)input["answers"]);
        Bridge.Native = native;
        Wait(GameCampaign.Init(new GameCampaignOptions { ClientKey = "ck:secret", UserId = "player-1", RelayUrl = "http://game.local/campaign", BaseUrl = "http://emulator.local" }));

        var found = Tracker.Start("cmp_spring_festival").Result;
        report["sessionId"] = found;
        var flushed = new List<object>();
        Tracker.Flushed += e => flushed.Add(e.Results[0].Status + " " + e.Results[0].SessionId);
        Tracker.Dropped += e => { throw new InvalidOperationException("a handler that throws"); };
        foreach (var envelope in (List<object>)input["events"]) native.Push(envelope);
        report["flushed"] = flushed;
        report["loggedExceptions"] = (double)UnityEngine.Debug.Exceptions.Count;

        var creators = Creators.Search("Luna", 5).Result;
        report["search"] = Json.Write(creators, c => c.CreatorKey + " " + c.CreatorName + " " + c.CreatorId);
        var campaign = Campaigns.Get("cmp_spring_festival").Result;
        report["campaign"] = campaign.CampaignId + " " + campaign.CampaignName["en"];
        report["cooldown"] = Describe(Catch(Boost.Change("NOVA1", "cmp_spring_festival")));
        var picker = CreatorPicker.Create("cmp_spring_festival").Result;
        var states = new List<object>();
        picker.Changed += state => states.Add(state.Selected + " canConfirm=" + state.CanConfirm + " cooldown=" + state.CooldownDays + " error=" + (state.Error == null ? "none" : state.Error.Name));
        foreach (var envelope in (List<object>)input["pickerEvents"]) native.Push(envelope);
        report["pickerFirst"] = picker.State.Creators.Count + " creators, query '" + picker.State.Query + "'";
        report["pickerStates"] = states;
        report["sent"] = native.Sent;
        report["pending"] = (double)Bridge.PendingCount;
        Console.WriteLine(Json.Serialize(report));
        return ProbeExit.Now(0);
    }

    private static void Wait(Task task) { task.GetAwaiter().GetResult(); }

    private static Exception Catch(Task task)
    {
        try { task.GetAwaiter().GetResult(); return null; }
        catch (Exception error) { return error; }
    }

    private static object Describe(Exception error)
    {
        var typed = error as GameCampaignException;
        if (typed == null) return error == null ? "no error" : error.GetType().Name + ": " + error.Message;
        var o = new Dictionary<string, object>();
        Json.Put(o, "type", typed.GetType().Name);
        Json.Put(o, "name", typed.ErrorName);
        Json.Put(o, "code", typed.Code);
        Json.Put(o, "status", typed.Status.HasValue ? (object)(double)typed.Status.Value : null);
        Json.Put(o, "daysRemaining", typed.DaysRemaining.HasValue ? (object)(double)typed.DaysRemaining.Value : null);
        Json.Put(o, "isBoostCooldown", typed.IsBoostCooldown);
        Json.Put(o, "message", typed.Message);
        return o;
    }
}
