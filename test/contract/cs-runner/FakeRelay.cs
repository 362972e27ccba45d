// The relays of every game and environment in one process, behind the package's HTTP seam
// (HttpExchange.Transport): each records a session id once (SUCCESS) and answers SKIPPED for one it has, binds the
// player from the Authorization header as a real relay's `authenticate` does (core/relay), refuses another user's
// items by the real relay's rule (core/relay/playtime.ts answerPlaytime: each FAILED with USER_MISMATCH_ERROR, never
// forwarded; a batch of only such items a 403 FORBIDDEN; the TS runner's relays.ts calls that function), and answers as scripted:
// a status (with Retry-After), unreachable (a connection error), or FAILED for every item; a wrong route, method or sentAt as the
// real relay answers it (relays.ts answers the same). When the device is offline
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
    /// <summary>"accept", "unreachable", "answer-lost" (answered as "accept", the answer then lost: a connection error), "status", "reject" or "itemStatus".</summary>
    internal string Mode = "accept";
    internal int Status = 0;
    internal double? RetryAfterSeconds = null;
    internal string RejectReason = null;
    /// <summary>Mode "itemStatus": the status every item is answered with in a 200 (null: none), one the spec does not define.</summary>
    internal string ItemStatus = null;
    /// <summary>
    /// What the tracker sent against the contract, whatever the relay answered (the scenario fails on it, in both runners:
    /// relays.ts <c>violations</c>): a request to a host no relay of the world is at, a route or method of a relay other than
    /// <c>POST {relay}/playtime/sessions</c>, a batch without <c>sentAt</c> (DESIGN section 5: every flush carries it).
    /// </summary>
    internal readonly List<string> Violations = new List<string>();

    internal async Task<HttpAnswer> Exchange(string method, string url, Dictionary<string, string> headers, string body)
    {
        // Worked out off the main thread (as a real request runs), in order with the tracker's file work, so settling
        // the main loop waits for it too.
        var answer = await IoQueue.Run(() =>
        {
            var answered = Answer(method, url, headers, body);
            // The relay answered (and recorded), and the answer never reached the device: a connection cut, the app killed mid-request.
            return Mode == "answer-lost" && answered.Reached ? new HttpAnswer { NetworkError = "the answer was lost" } : answered;
        });
        // Heard on a later turn of the main thread, always: Unity raises UnityWebRequestAsyncOperation.completed from its
        // player loop (ScriptReference AsyncOperation.completed), never inside the call that sent the request. Before, the
        // work above, done before the tracker awaited it, was heard at once, so a game's Flush() could send, hear a 503 and
        // end inside the call, and the background flush of the same frame sent a second request where TypeScript's joined
        // the first (p60: flush, then leave, relay 503; about one run in ten under load).
        await Task.Yield();
        return answer;
    }

    /// <summary>
    /// The answer to one request, as relays.ts's fetch gives it: a URL that names no relay of the world (not
    /// <c>https://{game}.example/{sandbox|live}/campaign/...</c>) fails as a connection error, as a host no one serves does;
    /// a relay's other routes get the real relay's 404 NOT_FOUND (core/relay/relay.ts <c>notFound</c>), its playtime route
    /// another method the real relay's 405.
    /// </summary>
    internal HttpAnswer Answer(string method, string url, Dictionary<string, string> headers, string body)
    {
        if (Application.internetReachability == NetworkReachability.NotReachable) return new HttpAnswer { NetworkError = "offline" };
        // https://{game}.example/{environment}/campaign/playtime/sessions
        var parts = url.Split('/');
        var relayHost = parts.Length >= 5 && parts[0] == "https:" && parts[1] == "" && parts[2].EndsWith(".example", StringComparison.Ordinal) && parts[2].IndexOf('.') == parts[2].Length - ".example".Length
            && parts[2].Length > ".example".Length && (parts[3] == "sandbox" || parts[3] == "live") && parts[4] == "campaign";
        if (!relayHost || Mode == "unreachable")
        {
            if (!relayHost) Violations.Add("a request to " + url + ", where no relay is");
            return new HttpAnswer { NetworkError = "Cannot resolve destination host" };
        }
        Sends++;
        var path = url.Substring(url.IndexOf('/', "https://".Length));
        if (path != "/" + parts[3] + "/campaign/playtime/sessions")
        {
            Violations.Add("a request to no route of the relay: " + method + " " + url);
            return new HttpAnswer { Status = 404, Body = Error(404, "NOT_FOUND", "No relay route " + method + " " + path) };
        }
        if (method != "POST")
        {
            Violations.Add("a request with another method than POST: " + method + " " + url);
            return new HttpAnswer { Status = 405, Body = Error(405, "BAD_REQUEST", method + " is not allowed here; use POST") };
        }
        var game = parts[2].Substring(0, parts[2].Length - ".example".Length);
        var environment = parts[3];
        var request = Json.Obj(Json.Parse(body));
        if (request != null && !request.ContainsKey("sentAt")) Violations.Add("a request without sentAt");
        if (Mode == "status")
        {
            // The same table as relays.ts STATUS_CODES (core/schema/error-codes.ts; the relay's 503 is INTERNAL_ERROR).
            var code = Status == 400 ? "BAD_REQUEST" : Status == 401 ? "UNAUTHORIZED" : Status == 403 ? "FORBIDDEN" : Status == 413 ? "PAYLOAD_TOO_LARGE" : Status == 429 ? "RATE_LIMITED" : "INTERNAL_ERROR";
            return new HttpAnswer { Status = Status, Body = Error(Status, code, "scripted answer " + Status), RetryAfter = RetryAfterSeconds.HasValue ? RetryAfterSeconds.Value.ToString(System.Globalization.CultureInfo.InvariantCulture) : null };
        }
        string authorization;
        headers.TryGetValue("authorization", out authorization);
        var player = authorization != null && authorization.StartsWith("Bearer ", StringComparison.Ordinal) ? authorization.Substring(7) : null;
        if (player == null) return new HttpAnswer { Status = 401, Body = Error(401, "UNAUTHORIZED", "Authentication failed") };
        // core/relay/request-body.ts readJsonBody after `authenticate`: a body over the relay's default 1 MiB (SERVICE_MAX_BODY_BYTES).
        if (System.Text.Encoding.UTF8.GetByteCount(body ?? "") > 1024 * 1024) return new HttpAnswer { Status = 413, Body = Error(413, "BAD_REQUEST", "The body is larger than 1048576 bytes") };
        var sessions = request == null ? null : Json.Field(request, "sessions") as List<object>;
        // core/schema/playtime.ts BulkPlaytimeItems: 1 to MAX_BULK_ITEMS (1000) sessions, else the whole batch is a 400.
        if (sessions == null || sessions.Count < 1 || sessions.Count > 1000) return new HttpAnswer { Status = 400, Body = Error(400, "VALIDATION_ERROR", "sessions must hold 1 to 1000 sessions") };
        // The real relay takes a batch without sentAt (core/relay/protocol.ts: optional; no shift) and refuses one that is not a
        // Timestamp with a 400 (core/relay/batch-check.ts); the tracker must send it (a violation, above, as in relays.ts).
        object sentAt;
        if (request.TryGetValue("sentAt", out sentAt) && (!(sentAt is string) || !DeviceClock.IsIsoMillis((string)sentAt))) return new HttpAnswer { Status = 400, Body = Error(400, "VALIDATION_ERROR", "sentAt must be a UTC timestamp of the form YYYY-MM-DDTHH:mm:ss.sssZ") };
        var isTest = Json.Bool(request, "isTest") == true;
        var others = 0;
        foreach (var item in sessions) if (Json.Str(Json.Obj(item), "userId") != player) others++;
        // core/relay/playtime.ts answerPlaytime: every item another user's is a 403 (the game's credentials are not this player's).
        if (others > 0 && others == sessions.Count) return new HttpAnswer { Status = 403, Body = Error(403, "FORBIDDEN", UserMismatchError + ": sign this player in again to send their sessions") };
        var results = new List<object>();
        int successful = 0, failed = 0, skipped = 0;
        foreach (var item in sessions)
        {
            var session = Json.Obj(item);
            var sessionId = Json.Str(session, "sessionId");
            // Another user's item is the relay's own FAILED, before the service (scripted) sees it.
            if (Json.Str(session, "userId") != player) { failed++; results.Add(Bridge.Args("sessionId", sessionId, "status", "FAILED", "error", UserMismatchError)); }
            else if (Mode == "itemStatus") results.Add(ItemStatus == null ? Bridge.Args("sessionId", sessionId) : Bridge.Args("sessionId", sessionId, "status", ItemStatus));
            else if (Mode == "reject") { failed++; results.Add(Bridge.Args("sessionId", sessionId, "status", "FAILED", "error", RejectReason)); }
            else if (!recordedIds.Add(game + "/" + environment + "/" + sessionId)) { skipped++; results.Add(Bridge.Args("sessionId", sessionId, "status", "SKIPPED")); }
            else
            {
                var wire = new Dictionary<string, object>(session);
                wire.Remove("sessionId");
                Received.Add(new ReceivedSession { SessionId = sessionId, Player = player, DurationSeconds = Json.Num(session, "durationSeconds") ?? -1, Game = game, Environment = environment, IsTest = isTest, Wire = wire });
                successful++;
                results.Add(Bridge.Args("sessionId", sessionId, "status", "SUCCESS"));
            }
        }
        var retryAfter = Mode == "itemStatus" && RetryAfterSeconds.HasValue ? RetryAfterSeconds.Value.ToString(System.Globalization.CultureInfo.InvariantCulture) : null;
        // The counts as the real relay recomputes them (core/relay/playtime.ts summarizeResults), as relays.ts's fake answers.
        var data = Bridge.Args("totalRequested", (double)results.Count, "successful", (double)successful, "failed", (double)failed, "skipped", (double)skipped, "results", results);
        return new HttpAnswer { Status = 200, Body = Bridge.Args("data", data), RetryAfter = retryAfter };
    }

    /// <summary>core/relay/playtime.ts USER_MISMATCH_ERROR: the relay's error for an item of another user.</summary>
    internal const string UserMismatchError = "userId does not match the authenticated user";

    /// <summary>The spec's error body (core/schema/error-codes.ts errorBody), as relays.ts's fake answers it.</summary>
    private static Dictionary<string, object> Error(int status, string code, string message)
    {
        var name = status == 400 ? "Bad Request" : status == 401 ? "Unauthorized" : status == 403 ? "Forbidden" : status == 404 ? "Not Found" : status == 405 ? "Method Not Allowed" : status == 413 ? "Payload Too Large" : status == 429 ? "Too Many Requests" : status == 503 ? "Service Unavailable" : "Internal Server Error";
        return Bridge.Args("status", (double)status, "error", name, "code", code, "message", message);
    }
}
