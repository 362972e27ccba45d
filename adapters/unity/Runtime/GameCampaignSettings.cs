using System.Collections.Generic;
using System.Threading.Tasks;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>Which Game Campaign service a build talks to (<see cref="GameCampaignOptions.Environment"/>).</summary>
    public enum GameCampaignEnvironment
    {
        /// <summary>Test data; nothing a creator is paid for.</summary>
        Sandbox,
        /// <summary>The live service.</summary>
        Live,
    }

    /// <summary>
    /// The project's SDK settings as an asset (Assets > Create > Game Campaign > Settings), so the Client key, the
    /// relay and the environment live in one reviewed file rather than in a scene's script, and a build can swap
    /// the asset (sandbox for development builds, live for release). What belongs to the player (their id, the
    /// relay's session headers) is given at <see cref="Init"/>. The Client key is read-only and safe to ship; the
    /// Server key never belongs here (it stays on the game server, behind the relay).
    /// </summary>
    /// <example><code>
    /// [SerializeField] private GameCampaignSettings settings;
    /// await settings.Init(playerId, new Dictionary&lt;string, string&gt; { { "authorization", "Bearer " + token } });
    /// </code></example>
    [CreateAssetMenu(fileName = "GameCampaignSettings", menuName = "Game Campaign/Settings")]
    public sealed class GameCampaignSettings : ScriptableObject
    {
        [Tooltip("The Client key, <CLIENT_KEY_ID>:<CLIENT_SECRET>: read-only, safe to ship. Never a Server key.")]
        public string clientKey;

        [Tooltip("Your game server's relay mount URL, e.g. https://game.example/campaign.")]
        public string relayUrl;

        [Tooltip("Sandbox (test data) or Live. Ignored when Base URL is set.")]
        public GameCampaignEnvironment environment = GameCampaignEnvironment.Sandbox;

        [Tooltip("Optional: another API address (the local emulator, a proxy); empty for the environment's.")]
        public string baseUrl;

        [Tooltip("Optional: the campaign of every play session.")]
        public string campaignId;

        [Tooltip("Optional: the creator of every play session.")]
        public string creatorKey;

        [Tooltip("Play sessions in test mode: validated, nothing recorded.")]
        public bool isTest;

        /// <summary>The options of <see cref="GameCampaign.Init"/> for <paramref name="userId"/>, from this asset.</summary>
        /// <param name="userId">The player, as the relay's <c>authenticate</c> knows them.</param>
        /// <param name="relayHeaders">The relay's headers (the game's session token); null for none.</param>
        public GameCampaignOptions ToOptions(string userId, Dictionary<string, string> relayHeaders = null)
        {
            return new GameCampaignOptions
            {
                ClientKey = Trimmed(clientKey),
                UserId = userId,
                RelayUrl = Trimmed(relayUrl),
                RelayHeaders = relayHeaders ?? new Dictionary<string, string>(),
                Environment = environment == GameCampaignEnvironment.Live ? "live" : "sandbox",
                BaseUrl = Trimmed(baseUrl),
                CampaignId = Trimmed(campaignId),
                CreatorKey = Trimmed(creatorKey),
                IsTest = isTest,
            };
        }

        /// <summary>
        /// <see cref="GameCampaign.Init"/> with this asset's settings for <paramref name="userId"/>: the overload of Init
        /// that takes the settings asset. Fails as Init does (VALIDATION_ERROR for an empty key, relay or user).
        /// </summary>
        public Task Init(string userId, Dictionary<string, string> relayHeaders = null)
        {
            return GameCampaign.Init(ToOptions(userId, relayHeaders));
        }

        // The Inspector keeps what was pasted, spaces and line breaks included; an empty field means "not set".
        private static string Trimmed(string value)
        {
            if (value == null) return null;
            var trimmed = value.Trim();
            return trimmed.Length == 0 ? null : trimmed;
        }
    }
}
