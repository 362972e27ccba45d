// The relays of every game and environment in one process, behind the package's HTTP seam
// (HttpExchange.Transport): each records a session id once (SUCCESS) and answers SKIPPED for one it has, binds the
// player from the Authorization header as a real relay's `authenticate` does (core/relay), and answers as scripted:
// a status (with Retry-After), unreachable (a connection error), or FAILED for every item. When the device is offline
// (Application.internetReachability) every request fails as a connection error. Answers arrive on a later turn of
// the main thread (its work runs on the tracker's IoQueue worker, off the main thread, as a request does).
using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

internal sealed class ReceivedSession
{
    internal string SessionId;
    internal string Player;
    internal double DurationSeconds;
    internal string Game;
    internal string Environment;
    internal bool IsTest;
    /// <summary>The session as the request's JSON carried it, without its (random) sessionId: what both trackers must send alike.</summary>
    internal Dictionary<string, object> Wire;
}

internal sealed class FakeRelay
{
    private readonly HashSet<string> recordedIds = new HashSet<string>();
    internal readonly List<ReceivedSession> Received = new List<ReceivedSession>();
    internal int Sends;
    /// <summary>"accept", "unreachable", "status", "reject" or "itemStatus".</summary>
    internal string Mode = "accept";
    internal int Status = 0;
    internal double? RetryAfterSeconds = null;
    internal string RejectReason = null;
    /// <summary>Mode "itemStatus": the status every item is answered with in a 200 (null: none), one the spec does not define.</summary>
    internal string ItemStatus = null;
    /// <summary>Something a relay would refuse that the tracker sent (no sentAt, a wrong route): the scenario fails on it.</summary>
    internal readonly List<string> Violations = new List<string>();

    internal Task<HttpAnswer> Exchange(string method, string url, Dictionary<string, string> headers, string body)
    {
        // Worked out off the main thread (as a real request runs), in order with the tracker's file work, so settling
        // the main loop waits for it too.
        return IoQueue.Run(() => Answer(method, url, headers, body));
    }

    private HttpAnswer Answer(string method, string url, Dictionary<string, string> headers, string body)
    {
        if (Application.internetReachability == NetworkReachability.NotReachable) return new HttpAnswer { NetworkError = "offline" };
        if (Mode == "unreachable") return new HttpAnswer { NetworkError = "Cannot resolve destination host" };
        // https://{game}.example/{environment}/campaign/playtime/sessions
        var parts = url.Split('/');
        if (parts.Length != 7 || method != "POST" || parts[5] != "playtime" || parts[6] != "sessions" || !parts[2].EndsWith(".example", StringComparison.Ordinal))
        {
            Violations.Add("unexpected request " + method + " " + url);
            return new HttpAnswer { Status = 404, Body = Error("NOT_FOUND", "no route") };
        }
        Sends++;
        var game = parts[2].Substring(0, parts[2].Length - ".example".Length);
        var environment = parts[3];
        if (Mode == "status")
        {
            var code = Status == 401 ? "UNAUTHORIZED" : Status == 403 ? "FORBIDDEN" : Status == 429 ? "RATE_LIMITED" : "INTERNAL_ERROR";
            return new HttpAnswer { Status = Status, Body = Error(code, "scripted " + Status), RetryAfter = RetryAfterSeconds.HasValue ? RetryAfterSeconds.Value.ToString(System.Globalization.CultureInfo.InvariantCulture) : null };
        }
        string authorization;
        headers.TryGetValue("authorization", out authorization);
        var player = authorization != null && authorization.StartsWith("Bearer ", StringComparison.Ordinal) ? authorization.Substring(7) : null;
        if (player == null) return new HttpAnswer { Status = 401, Body = Error("UNAUTHORIZED", "no credentials") };
        var request = Json.Obj(Json.Parse(body));
        var sessions = request == null ? null : Json.Field(request, "sessions") as List<object>;
        if (sessions == null) return new HttpAnswer { Status = 400, Body = Error("BAD_REQUEST", "no sessions") };
        if (Json.Str(request, "sentAt") == null) Violations.Add("a request without sentAt");
        var isTest = Json.Bool(request, "isTest") == true;
        var results = new List<object>();
        foreach (var item in sessions)
        {
            var session = Json.Obj(item);
            var sessionId = Json.Str(session, "sessionId");
            if (Mode == "itemStatus") results.Add(Bridge.Args("sessionId", sessionId, "status", ItemStatus));
            else if (Mode == "reject") results.Add(Bridge.Args("sessionId", sessionId, "status", "FAILED", "error", RejectReason));
            else if (Json.Str(session, "userId") != player) results.Add(Bridge.Args("sessionId", sessionId, "status", "FAILED", "error", "another user's session"));
            else if (!recordedIds.Add(game + "/" + environment + "/" + sessionId)) results.Add(Bridge.Args("sessionId", sessionId, "status", "SKIPPED"));
            else
            {
                var wire = new Dictionary<string, object>(session);
                wire.Remove("sessionId");
                Received.Add(new ReceivedSession { SessionId = sessionId, Player = player, DurationSeconds = Json.Num(session, "durationSeconds") ?? -1, Game = game, Environment = environment, IsTest = isTest, Wire = wire });
                results.Add(Bridge.Args("sessionId", sessionId, "status", "SUCCESS"));
            }
        }
        var retryAfter = Mode == "itemStatus" && RetryAfterSeconds.HasValue ? RetryAfterSeconds.Value.ToString(System.Globalization.CultureInfo.InvariantCulture) : null;
        return new HttpAnswer { Status = 200, Body = Bridge.Args("data", Bridge.Args("results", results)), RetryAfter = retryAfter };
    }

    private static Dictionary<string, object> Error(string code, string message)
    {
        return Bridge.Args("code", code, "message", message);
    }
}
