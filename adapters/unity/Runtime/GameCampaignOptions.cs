using System;
using System.Collections.Generic;
using System.Text.RegularExpressions;

namespace GameCampaignSdk
{
    /// <summary>Options of <see cref="GameCampaign.Init"/>: the JavaScript <c>createGameCampaign(options)</c>.</summary>
    [Serializable]
    public sealed class GameCampaignOptions
    {
        /// <summary>The Client key, <c>&lt;CLIENT_KEY_ID&gt;:&lt;CLIENT_SECRET&gt;</c>: read-only, safe to ship. Never a Server key.</summary>
        public string ClientKey;
        /// <summary>The player, as the game server's relay <c>authenticate</c> knows them.</summary>
        public string UserId;
        /// <summary>The game server's relay mount URL, e.g. <c>https://game.example/campaign</c>.</summary>
        public string RelayUrl;
        /// <summary>Headers for the relay (the game's own session token); change them later with <see cref="GameCampaign.SetRelayHeaders"/>.</summary>
        public Dictionary<string, string> RelayHeaders = new Dictionary<string, string>();
        /// <summary><c>sandbox</c> (default) or <c>live</c>; ignored when <see cref="BaseUrl"/> is set.</summary>
        public string Environment = "sandbox";
        /// <summary>Another API address (the local emulator, a proxy); null for <see cref="Environment"/>.</summary>
        public string BaseUrl;
        /// <summary>Default campaign of every play session; null for none.</summary>
        public string CampaignId;
        /// <summary>Default creator of every play session; null for none.</summary>
        public string CreatorKey;
        /// <summary>Test mode for play sessions: validated, nothing recorded.</summary>
        public bool IsTest;
        /// <summary>How often the running session is saved, so a killed app loses at most this much play (JavaScript <c>checkpointMs</c>); null: 15 s.</summary>
        public TimeSpan? CheckpointInterval;
        /// <summary>A stay in the background at least this long ends the session when it went there; a shorter one pauses it (JavaScript <c>backgroundTimeoutMs</c>); null: 60 s.</summary>
        public TimeSpan? BackgroundTimeout;
        /// <summary>How often queued sessions are sent while the game is in the foreground (JavaScript <c>flushIntervalMs</c>); null: 30 s.</summary>
        public TimeSpan? FlushInterval;
        /// <summary>Sends as soon as this many sessions are queued (JavaScript <c>flushAt</c>); null: 100.</summary>
        public int? FlushAt;
        /// <summary>At most this many sessions wait on the device; beyond it the oldest is dropped (<see cref="DropReason.Overflow"/>; JavaScript <c>maxQueue</c>); null: 10,000.</summary>
        public int? MaxQueue;
        /// <summary>Recording off for a player who has not chosen yet (their stored <see cref="Tracker.SetOptOut"/> choice wins).</summary>
        public bool OptOut;

        /// <summary>core/http/environment.ts's key form, <c>^[!-9;-~]+:[!-~]+$</c>, with .NET's end of input (<c>\z</c>).</summary>
        private static readonly Regex ClientKeyForm = new Regex(@"^[!-9;-~]+:[!-~]+\z");
        private static readonly char[] QueryOrFragment = { '?', '#' };

        /// <summary>
        /// core/tracker/options.ts's relay URL form: an absolute http(s) URL; in a WebGL build also a path from the root
        /// (<c>/campaign</c>), which the page's fetch resolves. UnityWebRequest has no page to resolve it against.
        /// </summary>
        private static readonly Regex RelayUrlForm = new Regex(
#if UNITY_WEBGL && !UNITY_EDITOR
            @"^(https?:/)?/", RegexOptions.IgnoreCase);
#else
            @"^https?://", RegexOptions.IgnoreCase);
#endif

#if UNITY_WEBGL && !UNITY_EDITOR
        private const string RelayUrlOnWebGL = ", or a path from the page's root (/campaign)";
#else
        private const string RelayUrlOnWebGL = "";
#endif

        internal Dictionary<string, object> ToJson()
        {
            if (string.IsNullOrEmpty(ClientKey)) throw new ArgumentException("GameCampaignOptions.ClientKey is required");
            if (string.IsNullOrEmpty(UserId)) throw new ArgumentException("GameCampaignOptions.UserId is required");
            if (string.IsNullOrEmpty(RelayUrl)) throw new ArgumentException("GameCampaignOptions.RelayUrl is required");
            // As the JavaScript SDK checks them (core/http/environment.ts apiEndpoint, core/tracker/options.ts), on every
            // platform: a native player took a key without its secret, or one with a line break pasted in, and a relay URL
            // the routes cannot follow ({url}?token=1/playtime/sessions), and failed only later, request by request.
            if (!ClientKeyForm.IsMatch(ClientKey)) throw new ArgumentException("GameCampaignOptions.ClientKey must have the form <key_id>:<secret> (printable characters, no spaces)");
            if (RelayUrl.IndexOfAny(QueryOrFragment) >= 0) throw new ArgumentException("GameCampaignOptions.RelayUrl must be a URL with no query or fragment: the routes are appended to it ({RelayUrl}/playtime/sessions)");
            if (!RelayUrlForm.IsMatch(RelayUrl)) throw new ArgumentException("GameCampaignOptions.RelayUrl must be an absolute http(s) URL, such as https://game.example/campaign" + RelayUrlOnWebGL);
            var tracker = Bridge.Args(
                "campaignId", CampaignId, "creatorKey", CreatorKey, "isTest", IsTest ? (object)true : null, "optOut", OptOut ? (object)true : null,
                "checkpointMs", Milliseconds(CheckpointInterval, "CheckpointInterval"),
                "backgroundTimeoutMs", Milliseconds(BackgroundTimeout, "BackgroundTimeout"),
                "flushIntervalMs", Milliseconds(FlushInterval, "FlushInterval"),
                "flushAt", Count(FlushAt, "FlushAt"),
                "maxQueue", Count(MaxQueue, "MaxQueue"));
            return Bridge.Args(
                "clientKey", ClientKey,
                "userId", UserId,
                "relay", Bridge.Args("url", RelayUrl, "headers", Json.Write(RelayHeaders)),
                "environment", string.IsNullOrEmpty(BaseUrl) ? (object)Environment : Bridge.Args("baseUrl", BaseUrl),
                "tracker", tracker.Count > 0 ? tracker : null);
        }

        /// <summary>Whole milliseconds of a positive span (null: the default).</summary>
        private static object Milliseconds(TimeSpan? span, string name)
        {
            if (!span.HasValue) return null;
            var ms = Math.Floor(span.Value.TotalMilliseconds);
            if (ms < 1 || ms > int.MaxValue) throw new ArgumentException("GameCampaignOptions." + name + " must be from 1 ms to " + int.MaxValue + " ms");
            return ms;
        }

        private static object Count(int? count, string name)
        {
            if (!count.HasValue) return null;
            if (count.Value < 1) throw new ArgumentException("GameCampaignOptions." + name + " must be at least 1");
            return (double)count.Value;
        }
    }
}
