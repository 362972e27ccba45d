using System.Collections.Generic;
using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>
    /// The Game Campaign SDK in a Unity WebGL game: call <see cref="Init"/> once, then use
    /// <see cref="Campaigns"/>, <see cref="Creators"/>, <see cref="Tracker"/>, <see cref="Boost"/>,
    /// <see cref="WebView"/> and <see cref="CreatorPicker"/>. Every call is a Task that completes when the
    /// SDK answers, and fails with a <see cref="GameCampaignException"/>. In a WebGL player the SDK is the JavaScript
    /// SDK (GameCampaign.jspre); in the Editor's Play mode and in other players it is a C# implementation over
    /// UnityWebRequest with the same behaviour, except the creator picker (WEBGL_ONLY there; see <see cref="IsWebGl"/>).
    /// </summary>
    /// <example><code>
    /// await GameCampaign.Init(new GameCampaignOptions { ClientKey = "ck_...:...", UserId = playerId, RelayUrl = "https://game.example/campaign" });
    /// await Tracker.Start("cmp_spring_festival");
    /// </code></example>
    public static class GameCampaign
    {
        /// <summary>True on every platform: the JavaScript SDK in a WebGL player, the C# implementation elsewhere.</summary>
        public static bool IsSupported { get { return true; } }

        /// <summary>True in a WebGL player (the JavaScript SDK); false in the Editor and other players (the C# implementation, without the creator picker).</summary>
        public static bool IsWebGl { get { return NativeDefault.WebGl; } }

        /// <summary>
        /// Creates the JavaScript facade (<c>window.GameCampaign.createGameCampaign</c>). Calling it again replaces the previous
        /// one, and ends its creator pickers as <see cref="Dispose"/> does (they belonged to the last player).
        /// </summary>
        /// <exception cref="GameCampaignException">VALIDATION_ERROR for a missing ClientKey, UserId or RelayUrl, a ClientKey not of the form &lt;key_id&gt;:&lt;secret&gt;, or a RelayUrl with a query or fragment; NOT_LOADED when the build holds no SDK script (WebGL); the SDK's own errors for bad options.</exception>
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
            Tracker.Listen();
            CreatorPicker.ForgetAll(); // the facade being replaced disposes its pickers with itself
            return Bridge.Call("init", json);
        }

        /// <summary>Replaces the relay headers (e.g. a refreshed session token) for the next relay requests.</summary>
        public static Task SetRelayHeaders(Dictionary<string, string> headers)
        {
            return Bridge.Call("relay.headers", Bridge.Args("headers", Json.Write(headers ?? new Dictionary<string, string>())));
        }

        /// <summary>
        /// Ends the running session, stops timers and listeners; queued sessions stay stored for the next start. Calling it
        /// again (OnDestroy, then OnApplicationQuit), or before <see cref="Init"/>, completes once the first call's wind-down has.
        /// </summary>
        public static Task Dispose()
        {
            CreatorPicker.ForgetAll();
            return Bridge.Call("dispose", null);
        }
    }
}
