// The managed SDK's reads and relay calls that return `data` (Campaigns, Creators, Boost, WebView.Open), each answered
// with a canned success (status and body text) in place of the service or the relay, through the game's own API and
// the bridge, as a game calls them. Prints, in the table's order, what the game got: "ok" (and the URLs opened), or
// the GameCampaignException's name, code, status and message. test/adapters/unity/managed-reads.test.ts compares it
// with what the JavaScript SDK gives for the same answers.
// args: device folder, then the table as JSON ([[call, status, body text or null], ...]).
using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedReadsProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;

    private static int Main(string[] args)
    {
        ProbeDevice.Open(args[0]);
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("reader")), "init");
        var outcomes = new List<object>();
        foreach (List<object> row in (List<object>)Json.Parse(args[1]))
        {
            var status = (long)(double)row[1];
            var text = row[2] as string;
            // As HttpExchange.Request reads an answer: a body that is not JSON is none (the status decides).
            object body = null;
            if (text != null)
            {
                try { body = Json.Parse(text); }
                catch (Exception) { body = null; }
            }
            HttpExchange.Transport = (method, url, headers, sent) => Task.FromResult(new HttpAnswer { Status = status, Body = body });
            Application.OpenedUrls.Clear();
            outcomes.Add(Outcome(Call((string)row[0])));
        }
        HttpExchange.Transport = ProbeDevice.Relay.Exchange;
        Console.WriteLine(Json.Serialize(outcomes));
        return ProbeExit.Now(0);
    }

    /// <summary>The call, its result described: the type the game got, null, or a list's count.</summary>
    private static Task<string> Call(string call)
    {
        switch (call)
        {
            case "campaigns.get": return Described(Campaigns.Get("camp-1"));
            case "campaigns.listCreators": return Described(Campaigns.ListCreators("camp-1"));
            case "creators.get": return Described(Creators.Get("ABC12"));
            case "creators.search": return Described(Creators.Search("star"));
            case "boost.change": return Described(Boost.Change("ABC12", "camp-1"));
            case "boost.current": return Described(Boost.Current());
            case "webview.open": return Opened(WebView.Open(new WebViewOpenOptions()));
        }
        throw new ArgumentException("no call " + call);
    }

    private static async Task<string> Described<T>(Task<T> call) where T : class
    {
        var value = await call;
        var list = value as System.Collections.ICollection;
        return value == null ? "null" : list != null ? list.Count + " items" : value.GetType().Name;
    }

    private static async Task<string> Opened(Task call)
    {
        await call;
        return "opened " + Application.OpenedUrls.Count;
    }

    /// <summary>What the game's await gave: "ok: " and the result, or the error's fields.</summary>
    private static object Outcome(Task<string> task)
    {
        Loop.Settle();
        if (!task.IsCompleted) return "never completed";
        if (task.Exception == null) return "ok: " + task.Result;
        var error = task.Exception.InnerException;
        var typed = error as GameCampaignException;
        if (typed == null) return error.GetType().Name + ": " + error.Message;
        return new Dictionary<string, object>
        {
            { "name", typed.ErrorName },
            { "code", typed.Code },
            { "status", typed.Status.HasValue ? (object)(double)typed.Status.Value : null },
            { "message", typed.Message },
        };
    }
}
