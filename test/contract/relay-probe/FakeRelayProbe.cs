// Asks the C# runner's fake relay (cs-runner/FakeRelay.cs) each request of the JSON file named by args[0] (method, url,
// body; the player p1's credentials), each on a fresh relay, and prints what it answered, as JSON: relay-parity.test.ts
// holds it to what relays.ts answers the same requests.
using System;
using System.Collections.Generic;
using System.IO;
using GameCampaignSdk;

public static class FakeRelayProbe
{
    public static void Main(string[] args)
    {
        var outcomes = new List<object>();
        foreach (var node in (List<object>)Json.Parse(File.ReadAllText(args[0])))
        {
            var request = (Dictionary<string, object>)node;
            var relay = new FakeRelay();
            var headers = new Dictionary<string, string> { { "authorization", "Bearer p1" }, { "content-type", "application/json" } };
            var answer = relay.Answer((string)request["method"], (string)request["url"], headers, (string)request["body"]);
            var code = answer.Reached ? Json.Str(Json.Obj(answer.Body), "code") : null;
            outcomes.Add(Bridge.Args(
                "status", answer.Reached ? (object)(double)answer.Status : "connection error",
                "code", code,
                "violations", (double)relay.Violations.Count,
                "sends", (double)relay.Sends,
                "received", (double)relay.Received.Count));
        }
        Console.WriteLine(Json.Serialize(outcomes));
    }
}
