// The checks of a scenario's `expect` step (test/contract/FORMAT.md, "Checks"): what the relays recorded, the
// dropped and error events (their C# enums mapped back to the JavaScript names), how the sessions that
// continuations name ended, what the device still holds, and how many requests reached a relay. Each checks the
// whole state since the scenario began.
using System.Collections.Generic;
using GameCampaignSdk;

internal sealed partial class Scenario
{
    /// <summary>How each session ended (SessionEnded), by id.</summary>
    private readonly Dictionary<string, string> endReasons = new Dictionary<string, string>();
    /// <summary>Every session:end heard: the session's durationSeconds (-1 without a session).</summary>
    private readonly Dictionary<string, long> endedSeconds = new Dictionary<string, long>();
    /// <summary>Every dropped event heard: its reason (JavaScript name), by session id.</summary>
    private readonly Dictionary<string, string> droppedIds = new Dictionary<string, string>();
    /// <summary>For each SessionStarted with Continues, in order: the reason the session it names ended with ("unknown" if not heard).</summary>
    private readonly List<string> continued = new List<string>();
    /// <summary>The process (start-up) that recovered each session (SessionEnded with reason "recovered"), by id.</summary>
    private readonly Dictionary<string, int> recoveredIn = new Dictionary<string, int>();

    /// <summary>The start-up that recovered a delivered session, 0 if none did: among one start-up's, the order is not defined (delivery-order.ts).</summary>
    internal int RecoveryOf(ReceivedSession session)
    {
        int recovery;
        return recoveredIn.TryGetValue(session.SessionId, out recovery) ? recovery : 0;
    }

    /// <summary>Hears how sessions end and which start as continuations, while process <paramref name="me"/> lives.</summary>
    private void HearSessions(int me)
    {
        Tracker.SessionEnded += e =>
        {
            if (process != me) return;
            endReasons[e.SessionId] = e.Reason;
            if (e.Reason == "recovered") recoveredIn[e.SessionId] = me;
            endedSeconds[e.SessionId] = e.Session == null ? -1 : e.Session.DurationSeconds;
        };
        Tracker.Dropped += e => { if (process == me) droppedIds[e.SessionId] = e.Reason; };
        Tracker.SessionStarted += e =>
        {
            string reason;
            if (process == me && e.Continues != null) continued.Add(endReasons.TryGetValue(e.Continues, out reason) ? reason : "unknown");
        };
    }

    private void Expect(Dictionary<string, object> checks)
    {
        var problems = new List<string>();
        foreach (var pair in checks)
        {
            switch (pair.Key)
            {
                case "received": CheckReceived(pair.Value as List<object>, problems); break;
                case "dropped": CheckDropped(pair.Value as List<object>, problems); break;
                case "errors": CheckList("errors", pair.Value as List<object>, errors, problems); break;
                case "continued": CheckList("continued", pair.Value as List<object>, continued, problems); break;
                case "stored": CheckStored(Json.Obj(pair.Value), problems); break;
                case "sends":
                    // A count, or [least, most] where the trackers may part (FORMAT.md: a recovery's sessions in one request or more).
                    var range = pair.Value as List<object>;
                    var least = range == null ? (double)pair.Value : (double)range[0];
                    var most = range == null ? least : (double)range[1];
                    if (relay.Sends < least || relay.Sends > most) problems.Add("sends: expected " + Json.Serialize(pair.Value) + ", observed " + relay.Sends);
                    break;
                default: throw new ScenarioFailure("unknown check " + pair.Key);
            }
        }
        if (problems.Count > 0) throw new ScenarioFailure(string.Join("\n", problems));
    }

    private void CheckReceived(List<object> expected, List<string> problems)
    {
        var observed = new List<string>();
        foreach (var session in relay.Received) observed.Add(Json.Serialize(Bridge.Args("player", session.Player, "durationSeconds", session.DurationSeconds, "game", session.Game, "environment", session.Environment, "isTest", session.IsTest)));
        // In order, but the sessions one start-up recovered in any order among themselves (delivery-order.ts matchesInDefinedOrder).
        var ok = expected != null && expected.Count == relay.Received.Count;
        var groups = new Dictionary<int, List<int>>();
        for (var i = 0; ok && i < expected.Count; i++)
        {
            var recovery = RecoveryOf(relay.Received[i]);
            if (recovery == 0) ok = Matches(Json.Obj(expected[i]), relay.Received[i]);
            else
            {
                if (!groups.ContainsKey(recovery)) groups[recovery] = new List<int>();
                groups[recovery].Add(i);
            }
        }
        foreach (var places in groups.Values) if (ok) ok = Pairs(expected, places, new List<int>());
        if (!ok) problems.Add("received: expected " + Json.Serialize(expected) + ", observed [" + string.Join(",", observed) + "]");
    }

    private static bool Matches(Dictionary<string, object> want, ReceivedSession got)
    {
        return want != null
            && (Json.Str(want, "player") == null || Json.Str(want, "player") == got.Player)
            && (!Json.Num(want, "durationSeconds").HasValue || Json.Num(want, "durationSeconds").Value == got.DurationSeconds)
            && (Json.Str(want, "game") == null || Json.Str(want, "game") == got.Game)
            && (Json.Str(want, "environment") == null || Json.Str(want, "environment") == got.Environment)
            && (!Json.Bool(want, "isTest").HasValue || Json.Bool(want, "isTest").Value == got.IsTest);
    }

    /// <summary>Whether the expected entries at <paramref name="places"/> pair with the sessions there in some order (a plain search: a recovery holds a few).</summary>
    private bool Pairs(List<object> expected, List<int> places, List<int> taken)
    {
        if (taken.Count == places.Count) return true;
        var want = Json.Obj(expected[places[taken.Count]]);
        foreach (var place in places)
        {
            if (taken.Contains(place) || !Matches(want, relay.Received[place])) continue;
            taken.Add(place);
            if (Pairs(expected, places, taken)) return true;
            taken.RemoveAt(taken.Count - 1);
        }
        return false;
    }

    /// <summary>
    /// The dropped reasons in order, but those of sessions one start-up recovered in any order among themselves, as
    /// <see cref="CheckReceived"/> (expectations.ts, delivery-order.ts matchesInDefinedOrder).
    /// </summary>
    private void CheckDropped(List<object> expected, List<string> problems)
    {
        var ok = expected != null && expected.Count == dropped.Count;
        var groups = new Dictionary<int, List<int>>();
        for (var i = 0; ok && i < expected.Count; i++)
        {
            if (droppedRecovery[i] == 0) ok = expected[i] as string == dropped[i];
            else
            {
                if (!groups.ContainsKey(droppedRecovery[i])) groups[droppedRecovery[i]] = new List<int>();
                groups[droppedRecovery[i]].Add(i);
            }
        }
        foreach (var places in groups.Values)
        {
            if (!ok) break;
            // The same reasons at the group's places, counted (a reason matches only itself, so counting is pairing).
            var left = new List<string>();
            foreach (var place in places) left.Add(dropped[place]);
            foreach (var place in places) ok = ok && left.Remove(expected[place] as string);
        }
        if (!ok) problems.Add("dropped: expected " + Json.Serialize(expected) + ", observed " + Json.Serialize(new List<object>(dropped)));
    }

    private static void CheckList(string name, List<object> expected, List<string> observed, List<string> problems)
    {
        var ok = expected != null && expected.Count == observed.Count;
        for (var i = 0; ok && i < expected.Count; i++) ok = expected[i] as string == observed[i];
        if (!ok) problems.Add(name + ": expected " + Json.Serialize(expected) + ", observed " + Json.Serialize(new List<object>(observed)));
    }

    /// <summary>The files of the player's folder that hold a session: queue/*.json and running/*.json (set-aside files end in .unreadable).</summary>
    private void CheckStored(Dictionary<string, object> want, List<string> problems)
    {
        var game = Json.Str(want, "game") ?? "g1";
        var environment = Json.Str(want, "environment") ?? "sandbox";
        var folder = PlayerFolder.For("ck_" + game + "_" + environment, environment, environment == "sandbox", Json.Str(want, "player") ?? "p1");
        var count = TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count;
        var expected = Json.Num(want, "sessions");
        if (!expected.HasValue || expected.Value != count) problems.Add("stored " + Json.Serialize(want) + ": observed " + count);
    }
}
