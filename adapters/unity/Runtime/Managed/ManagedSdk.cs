// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// The SDK outside WebGL, for one <c>Init</c>: the Client API reads with the Client key, and the relay calls (boost,
    /// web view token, playtime) with the game's relay headers, over <see cref="HttpExchange"/>; the tracker is
    /// <see cref="ManagedTracker"/>. The same requests and answers as the JavaScript SDK (core/client, core/boost,
    /// core/webview, core/relay/routes.ts), so the relay and the service cannot tell the two apart.
    /// </summary>
    internal sealed class ManagedSdk
    {
        private static readonly Regex WebPage = new Regex(Rules.WebPagePattern, RegexOptions.CultureInvariant);
        private static readonly Dictionary<string, string> BaseUrls = new Dictionary<string, string>
        {
            { "live", "https://api.game-campaign.com" },
            { "sandbox", "https://sandbox-api.game-campaign.com" },
        };

        private readonly string clientKey;
        private readonly string relayUrl;
        private readonly string baseUrl;
        private readonly Action<string, object> emit;

        /// <param name="previous">the previous SDK's wind-down (an Init while one ran): the tracker reads storage after it.</param>
        internal ManagedSdk(Dictionary<string, object> options, Action<string, object> emit, Task previous)
        {
            this.emit = emit;
            clientKey = Required(options, "clientKey");
            UserId = Required(options, "userId");
            var relay = Json.Obj(Json.Field(options, "relay")) ?? new Dictionary<string, object>();
            relayUrl = Required(relay, "url").TrimEnd('/');
            RelayHeaders = Json.StringMap(relay, "headers") ?? new Dictionary<string, string>();
            var environment = Json.Field(options, "environment");
            var custom = Json.Str(Json.Obj(environment), "baseUrl");
            var named = environment as string ?? "sandbox";
            if (custom == null && !BaseUrls.TryGetValue(named, out custom)) throw Invalid("environment must be live, sandbox or { baseUrl }");
            baseUrl = custom.TrimEnd('/');
            var tracker = Json.Obj(Json.Field(options, "tracker")) ?? new Dictionary<string, object>();
            CampaignId = Json.Str(tracker, "campaignId");
            CreatorKey = Json.Str(tracker, "creatorKey");
            IsTest = Json.Bool(tracker, "isTest") == true;
            var settings = TrackerSettings.From(tracker);
            var folder = PlayerFolder.For(clientKey.Split(':')[0], Json.Obj(environment) == null ? named : baseUrl, IsTest, UserId);
            Tracker = new ManagedTracker(this, settings, folder, previous);
        }

        internal string UserId { get; private set; }
        /// <summary>The relay's base URL (named in the error of a relay that cannot be reached).</summary>
        internal string RelayUrl { get { return relayUrl; } }
        internal string CampaignId { get; private set; }
        internal string CreatorKey { get; private set; }
        internal bool IsTest { get; private set; }
        internal Dictionary<string, string> RelayHeaders { get; set; }
        internal ManagedTracker Tracker { get; private set; }

        /// <summary>Set once the tracker's <c>Dispose</c> is done: see <see cref="Emit"/>.</summary>
        private bool silenced;

        /// <summary>
        /// Raises an event, until <see cref="Silence"/>: a replaced SDK's late work (an answer already received as another
        /// player signed in) must not reach the game, whose handlers are static and would take it for the new player's
        /// (core/tracker/tracker.ts dispose forgets its listeners, as a WebGL player's JavaScript SDK does).
        /// </summary>
        internal void Emit(string name, object data)
        {
            if (!silenced) emit(name, data);
        }

        /// <summary>No more events from this SDK (its tracker was disposed).</summary>
        internal void Silence() { silenced = true; }

        /// <summary>
        /// A Client API read (<c>GET {baseUrl}{path}</c>): its <c>data</c>, an object or a <paramref name="list"/> of
        /// <paramref name="name"/> (<see cref="HttpExchange.DataOf"/>), or the typed error. <paramref name="nullWhenNotFound"/>:
        /// the service's 404 is null (no boost) instead of an error.
        /// </summary>
        internal async Task<object> Read(string path, string name, bool list = false, bool nullWhenNotFound = false)
        {
            var answer = await HttpExchange.Send("GET", baseUrl + path, new Dictionary<string, string> { { "Authorization", "Bearer " + clientKey } }, null);
            if (answer.Ok) return HttpExchange.DataOf(answer, name, list);
            // Only the service's own 404 (the spec's error body, whose message the error carries) means none, as
            // core/boost/boost.ts: a proxy's or CDN's 404 page, a framework's { "message": "Not Found" } or a wrong base
            // URL has no code, so the error is NOT_FOUND "HTTP 404", not "no boost".
            var error = HttpExchange.ErrorOf(answer);
            if (nullWhenNotFound && error.ErrorName == "NotFoundError" && error.Message != "HTTP 404") return null;
            throw error;
        }

        /// <summary>A relay request with the game's headers (read per request, so <c>SetRelayHeaders</c> applies to the next one).</summary>
        internal Task<HttpAnswer> Relay(string method, string route, Dictionary<string, object> body)
        {
            return HttpExchange.Send(method, relayUrl + route, new Dictionary<string, string>(RelayHeaders), body);
        }

        /// <summary>Like <see cref="Relay"/>, with the body already serialized (off the main thread); <paramref name="cancel"/> recalls it.</summary>
        internal Task<HttpAnswer> RelayJson(string method, string route, string json, CancellationToken cancel)
        {
            return HttpExchange.SendJson(method, relayUrl + route, new Dictionary<string, string>(RelayHeaders), json, cancel);
        }

        /// <summary>A relay call whose answer is the result: its <c>data</c>, an object of <paramref name="name"/> (core/relay/client-request.ts), or the typed error (401/403 a <c>RelayAuthError</c>).</summary>
        internal async Task<object> RelayCall(string method, string route, Dictionary<string, object> body, string name, bool cooldown = false)
        {
            var answer = await Relay(method, route, body);
            if (answer.Ok) return HttpExchange.DataOf(answer, name);
            throw HttpExchange.ErrorOf(answer, cooldown, relay: true);
        }

        /// <summary>Counts <see cref="OpenWebView"/> and <see cref="CloseWebView"/> calls: an open still asking for its token when another comes is not shown.</summary>
        private int webViewCalls;
        /// <summary>The last token request: each waits for the one before (whatever its outcome).</summary>
        private Task webViewAsking = Task.FromResult(0);

        /// <summary>
        /// The web view in the system browser: a PKCE pair made here, a one-time token bound to its challenge from the
        /// relay, and <c>{url}?ott=...#code_verifier=...</c> opened with <see cref="Application.OpenURL"/> (core/webview/launcher.ts).
        /// As core/webview/open-page.ts: one token request at a time, in the order of the calls (the service ends a player's
        /// older token as it issues a newer one), and only the open called last is shown; one that a later
        /// <c>Open</c>, a <c>Close</c> or the SDK's end overtook completes without opening (a system browser's tab cannot
        /// be closed again). Before, two calls (a double tap) both opened, the answer that arrived last on top, and when
        /// the service had issued that token first the player saw "token replaced".
        /// </summary>
        internal async Task<object> OpenWebView(Dictionary<string, object> args)
        {
            var call = ++webViewCalls;
            var asking = AskWebViewPage(args, webViewAsking);
            webViewAsking = asking;
            var page = await asking;
            if (call == webViewCalls) Application.OpenURL(page);
            return null;
        }

        /// <summary>This SDK's end (<c>Dispose</c>, another <c>Init</c>, quitting): its tracker disposed and, as gc.dispose() closes the launcher, no page of it still on its way shown.</summary>
        internal Task End()
        {
            CloseWebView();
            return Tracker.Dispose("dispose");
        }

        /// <summary>An open still asking for its token is not shown (the page already in the browser stays: nobody can close it).</summary>
        internal void CloseWebView() { webViewCalls++; }

        /// <summary>The page to open: its token asked for once <paramref name="before"/> is answered.</summary>
        private async Task<string> AskWebViewPage(Dictionary<string, object> args, Task before)
        {
            try { await before; }
            catch (Exception) { } // its own Open reports it
            string codeVerifier, codeChallenge;
            RandomIds.PkcePair(out codeVerifier, out codeChallenge);
            var request = new Dictionary<string, object>(args);
            request.Remove("title");
            request["codeChallenge"] = codeChallenge;
            var token = (Dictionary<string, object>)await RelayCall("POST", "/webview/ott", request, "OneTimeToken");
            // A 200 without an absolute http(s) url (Rules.WebPagePattern, the relay's rule) and a non-empty string ott (a
            // misconfigured relay, a proxy's 200): the relay's answer shown, as core/webview/open-page.ts does (the WebGL
            // build), rather than a page opened with ott= that the service refuses. Application.OpenURL hands any other
            // address to the system (a file: path it runs, an app's own scheme), and a relative one opens nothing.
            // `data` itself is an object: RelayCall refuses any other, as the JavaScript SDK's transport does.
            var url = Json.Str(token, "url");
            if (url == null || !WebPage.IsMatch(url) || string.IsNullOrEmpty(Json.Str(token, "ott")))
            {
                throw new GameCampaignException(new ErrorInfo { Name = "Error", Code = "JS_ERROR", Message = "gc.webview.open: the relay answered with an unexpected body: " + Json.Serialize(token, true) });
            }
            url = url.Split('#')[0];
            return url + (url.Contains("?") ? "&" : "?") + "ott=" + Uri.EscapeDataString(Json.Str(token, "ott")) + "#code_verifier=" + codeVerifier;
        }

        internal static string Segment(Dictionary<string, object> args, string key)
        {
            return Uri.EscapeDataString(Required(args, key));
        }

        private static string Required(Dictionary<string, object> o, string key)
        {
            var value = Json.Str(o, key);
            if (string.IsNullOrEmpty(value)) throw Invalid(key + " is required");
            return value;
        }

        private static GameCampaignException Invalid(string message)
        {
            return new GameCampaignException(new ErrorInfo { Name = "ValidationError", Code = "VALIDATION_ERROR", Message = message });
        }
    }
}
#endif
