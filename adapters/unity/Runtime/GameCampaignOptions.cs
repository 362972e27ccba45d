using System;
using System.Collections.Generic;

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

        internal Dictionary<string, object> ToJson()
        {
            if (string.IsNullOrEmpty(ClientKey)) throw new ArgumentException("GameCampaignOptions.ClientKey is required");
            if (string.IsNullOrEmpty(UserId)) throw new ArgumentException("GameCampaignOptions.UserId is required");
            if (string.IsNullOrEmpty(RelayUrl)) throw new ArgumentException("GameCampaignOptions.RelayUrl is required");
            var tracker = Bridge.Args("campaignId", CampaignId, "creatorKey", CreatorKey, "isTest", IsTest ? (object)true : null);
            return Bridge.Args(
                "clientKey", ClientKey,
                "userId", UserId,
                "relay", Bridge.Args("url", RelayUrl, "headers", Json.Write(RelayHeaders)),
                "environment", string.IsNullOrEmpty(BaseUrl) ? (object)Environment : Bridge.Args("baseUrl", BaseUrl),
                "tracker", tracker.Count > 0 ? tracker : null);
        }
    }
}
