using System.Collections.Generic;
using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>
    /// The Game Campaign SDK in a Unity WebGL game: call <see cref="Init"/> once, then use
    /// <see cref="Campaigns"/>, <see cref="Creators"/>, <see cref="Tracker"/>, <see cref="Boost"/>,
    /// <see cref="WebView"/> and <see cref="CreatorPicker"/>. Every call is a Task that completes when the
    /// JavaScript SDK answers, and fails with a <see cref="GameCampaignException"/>. In the Editor and on
    /// other platforms every call fails with code <c>WEBGL_ONLY</c> (check <see cref="IsSupported"/>).
    /// </summary>
    /// <example><code>
    /// await GameCampaign.Init(new GameCampaignOptions { ClientKey = "ck_...:...", UserId = playerId, RelayUrl = "https://game.example/campaign" });
    /// await Tracker.Start("cmp_spring_festival");
    /// </code></example>
    public static class GameCampaign
    {
        /// <summary>True in a WebGL player; false in the Editor and on other platforms.</summary>
        public static bool IsSupported { get { return NativeDefault.Supported; } }

        /// <summary>Creates the JavaScript facade (<c>window.GameCampaign.createGameCampaign</c>). Calling it again replaces the previous one.</summary>
        /// <exception cref="GameCampaignException">VALIDATION_ERROR for a missing ClientKey, UserId or RelayUrl; NOT_LOADED when the page did not load the SDK's script; the SDK's own errors for bad options; WEBGL_ONLY outside WebGL.</exception>
        public static Task Init(GameCampaignOptions options)
        {
            Dictionary<string, object> json;
            try
            {
                if (options == null) throw new System.ArgumentNullException("options");
                json = options.ToJson();
            }
            catch (System.ArgumentException error)
            {
                var failed = new TaskCompletionSource<object>();
                failed.SetException(new GameCampaignException("VALIDATION_ERROR", error.Message));
                return failed.Task;
            }
            return Bridge.Call("init", json);
        }

        /// <summary>Replaces the relay headers (e.g. a refreshed session token) for the next relay requests.</summary>
        public static Task SetRelayHeaders(Dictionary<string, string> headers)
        {
            return Bridge.Call("relay.headers", Bridge.Args("headers", Json.Write(headers ?? new Dictionary<string, string>())));
        }

        /// <summary>Ends the running session, stops timers and listeners; queued sessions stay stored for the next start.</summary>
        public static Task Dispose()
        {
            CreatorPicker.ForgetAll();
            return Bridge.Call("dispose", null);
        }
    }

    /// <summary>Campaign reads (Client API).</summary>
    public static class Campaigns
    {
        /// <summary>One campaign. <exception cref="GameCampaignException">NOT_FOUND</exception></summary>
        public static Task<Campaign> Get(string campaignId)
        {
            return Bridge.Call("campaigns.get", Bridge.Args("campaignId", campaignId), Campaign.FromJson);
        }

        /// <summary>The creators taking part in a campaign.</summary>
        public static Task<List<Creator>> ListCreators(string campaignId)
        {
            return Bridge.Call("campaigns.listCreators", Bridge.Args("campaignId", campaignId), ReadList.Of(Creator.FromJson));
        }
    }

    /// <summary>Creator reads and search (Client API).</summary>
    public static class Creators
    {
        /// <summary>One creator by key.</summary>
        public static Task<Creator> Get(string creatorKey)
        {
            return Bridge.Call("creators.get", Bridge.Args("creatorKey", creatorKey), Creator.FromJson);
        }

        /// <summary>Creators whose name or key matches <paramref name="query"/> (1 to 10 characters).</summary>
        /// <exception cref="GameCampaignException">VALIDATION_ERROR for an empty or over-long query or a limit outside 1..100.</exception>
        public static Task<List<Creator>> Search(string query, int? limit = null, bool? isTest = null)
        {
            return Bridge.Call("creators.search", Bridge.Args("query", query, "limit", limit, "isTest", isTest), ReadList.Of(Creator.FromJson));
        }
    }

    /// <summary>Boosting a creator, through the game server's relay.</summary>
    public static class Boost
    {
        /// <summary>Boosts another creator.</summary>
        /// <exception cref="GameCampaignException">with <see cref="GameCampaignException.DaysRemaining"/> inside the 30-day cooldown; NOT_FOUND for an unknown creator.</exception>
        public static Task<BoostRecord> Change(BoostChange change)
        {
            return Bridge.Call("boost.change", change.ToJson(), BoostRecord.FromJson);
        }

        /// <summary>Boosts <paramref name="newCreatorKey"/> (in <paramref name="campaignId"/>, when given).</summary>
        public static Task<BoostRecord> Change(string newCreatorKey, string campaignId = null)
        {
            return Change(new BoostChange { NewCreatorKey = newCreatorKey, CampaignId = campaignId });
        }

        /// <summary>The player's current boost; null when they have none.</summary>
        public static Task<BoostRecord> Current()
        {
            return Bridge.Call("boost.current", null, BoostRecord.FromJson);
        }
    }

    /// <summary>The campaign web view (PKCE and a one-time token through the relay).</summary>
    public static class WebView
    {
        /// <summary>Raised when the web view opened last has closed (the player, the page, or <see cref="Close"/>).</summary>
        public static event System.Action Closed;

        static WebView()
        {
            Bridge.EventReceived += (name, message) =>
            {
                var handlers = Closed;
                if (name == "webview:closed" && handlers != null) handlers();
            };
        }

        /// <summary>Opens the web view; the Task completes once it is open. Opening again closes the first.</summary>
        public static Task Open(WebViewOpenOptions options)
        {
            return Bridge.Call("webview.open", (options ?? new WebViewOpenOptions()).ToJson());
        }

        /// <summary>Closes the web view opened last, if it is still open.</summary>
        public static Task Close()
        {
            return Bridge.Call("webview.close", null);
        }
    }

    internal static class ReadList
    {
        public static System.Func<object, List<T>> Of<T>(System.Func<object, T> read)
        {
            return value =>
            {
                var items = value as List<object>;
                var result = new List<T>();
                if (items != null) foreach (var item in items) result.Add(read(item));
                return result;
            };
        }
    }
}
