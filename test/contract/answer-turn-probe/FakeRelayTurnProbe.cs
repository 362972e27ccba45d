// Sends one request through the C# runner's fake relay (cs-runner/FakeRelay.cs) from a main thread driven by the runner's
// MainLoop, waits until the relay's work is done off the main thread, and prints whether the answer was heard before the
// main thread took another turn, and after: relay-parity.test.ts holds it to UnityWebRequest's rule (never inside the call
// that sent the request, always from a later turn of the player loop).
using System;
using System.Collections.Generic;
using System.Threading;
using GameCampaignSdk;

public static class FakeRelayTurnProbe
{
    public static void Main(string[] args)
    {
        var loop = new MainLoop();
        SynchronizationContext.SetSynchronizationContext(loop);
        var relay = new FakeRelay();
        var headers = new Dictionary<string, string> { { "authorization", "Bearer p1" }, { "content-type", "application/json" } };
        var answer = relay.Exchange("POST", args[0], headers, args[1]);
        IoQueue.WaitIdle(10000); // the relay's work is done: only the main thread's turn is left
        var heardInTheCall = answer.IsCompleted;
        loop.Settle();
        Console.WriteLine(Json.Serialize(Bridge.Args("heardInTheCall", heardInTheCall, "heardAfterATurn", answer.IsCompleted, "status", answer.IsCompleted ? (object)(double)answer.Result.Status : null)));
    }
}
