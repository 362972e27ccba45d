using System;
using System.Collections.Generic;
using System.Text;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;
using UnityEngine.Networking;

namespace GameCampaignSdk.Samples
{
    /// <summary>
    /// The whole SDK on one IMGUI screen: play/stop a tracked session, a creator picker list with search and
    /// boost, and the campaign web view. Put it on any GameObject: adding the package is the only install step.
    /// In a WebGL build it runs the JavaScript SDK (any WebGL template); in the Editor's Play mode the C#
    /// implementation records sessions through the relay on the emulator too, and opens the web view in the
    /// system browser, but has no creator picker: the list then comes from Creators.Search.
    /// </summary>
    public sealed class GameCampaignSample : MonoBehaviour
    {
        [Tooltip("A settings asset (Assets > Create > Game Campaign > Settings). When set, it is used instead of the key, relay and API address below (the login URL still applies: empty it for a relay of your own).")]
        [SerializeField] private GameCampaignSettings settings;
        [Tooltip("Client key (read-only, safe to ship). The emulator prints its sandbox keys on start.")]
        [SerializeField] private string clientKey = "ck_sandbox_demo:cs_sandbox_demo_secret";
        [Tooltip("The game server's relay mount URL.")]
        [SerializeField] private string relayUrl = "http://127.0.0.1:8788/campaign";
        [Tooltip("API address; empty for the sandbox service. The local emulator: http://127.0.0.1:8787")]
        [SerializeField] private string baseUrl = "http://127.0.0.1:8787";
        [Tooltip("npm start's toy login: POST {\"userId\"} answers {\"token\"}, the relay's bearer token for that player. Empty: the player id is sent as the token (a relay of your own that accepts it). A real game signs in with its own accounts.")]
        [SerializeField] private string loginUrl = "http://127.0.0.1:8788/login";
        [SerializeField] private string campaignId = "cmp_spring_festival";
        [SerializeField] private string playerId = "player-1";

        private CreatorPicker picker;
        private List<Creator> found = new List<Creator>();
        private string selected;
        private string query = "";
        private string status = "starting";
        private string sessionId;

        // The tracker's events are static: they outlive this component, so OnDestroy unsubscribes (a scene loaded
        // again would otherwise add another set each time and keep every destroyed copy alive).
        private void OnFlushed(FlushedEvent e) { status = "sent " + e.Results.Count + " session(s)"; }
        private void OnDropped(DroppedEvent e) { status = "dropped " + e.SessionId + ": " + e.Reason; }
        private void OnTrackerError(TrackerError e) { status = "tracker " + e.Kind + ": " + e.Message; }

        private async void Start()
        {
            Tracker.Flushed += OnFlushed;
            Tracker.Dropped += OnDropped;
            Tracker.Error += OnTrackerError;
            await Run("init", async () =>
            {
                // The game's own session token for its relay (here npm start's toy login); refresh it with GameCampaign.SetRelayHeaders.
                var relayHeaders = new Dictionary<string, string> { { "authorization", "Bearer " + await SignIn() } };
                if (settings != null) await settings.Init(playerId, relayHeaders);
                else
                {
                    await GameCampaign.Init(new GameCampaignOptions
                    {
                        ClientKey = clientKey,
                        UserId = playerId,
                        RelayUrl = relayUrl,
                        RelayHeaders = relayHeaders,
                        BaseUrl = string.IsNullOrEmpty(baseUrl) ? null : baseUrl,
                        CampaignId = campaignId,
                    });
                }
                // The picker is the JavaScript SDK's; outside WebGL the sample searches and boosts directly.
                if (GameCampaign.IsWebGl) picker = await CreatorPicker.Create(campaignId);
                else found = await Campaigns.ListCreators(campaignId);
                status = GameCampaign.IsWebGl ? "ready" : "ready (C# implementation: Editor or non-WebGL player)";
            });
        }

        private void OnGUI()
        {
            GUILayout.BeginVertical();
            GUILayout.Label(status);
            GUILayout.BeginHorizontal();
            if (sessionId == null && GUILayout.Button("Play")) Fire("play", async () => sessionId = await Tracker.Start(campaignId));
            if (sessionId != null && GUILayout.Button("Stop")) Fire("stop", async () => { await Tracker.Stop(); sessionId = null; await Tracker.Flush(); });
            if (GUILayout.Button("Open campaign page")) Fire("web view", () => WebView.Open(new WebViewOpenOptions { CampaignId = campaignId, ShowCampaignDetail = true }));
            GUILayout.EndHorizontal();
            if (picker != null) DrawPicker(picker.State);
            else DrawSearch();
            GUILayout.EndVertical();
        }

        private void DrawPicker(PickerState state)
        {
            if (state == null) return;
            GUILayout.Label(state.Loading ? "Loading..." : state.Boost != null ? "Boosting " + state.Boost.CreatorName : "No boost yet");
            var next = GUILayout.TextField(query);
            if (next != query)
            {
                query = next;
                Fire("search", () => picker.Search(query));
            }
            var shown = state.Results ?? state.Creators; // results while a valid query is answered
            foreach (var creator in shown ?? new List<Creator>())
            {
                var mark = creator.CreatorKey == state.Selected ? "> " : "";
                if (GUILayout.Button(mark + creator.CreatorName + " (" + creator.Genre + ")")) Fire("select", () => picker.Select(creator.CreatorKey));
            }
            if (state.CooldownDays.HasValue) GUILayout.Label("You can change your boost in " + state.CooldownDays.Value + " days");
            if (state.Error != null) GUILayout.Label(state.Error.Code + ": " + state.Error.Message);
            if (state.CanConfirm && !state.Confirming && GUILayout.Button("Boost")) Fire("boost", () => picker.Confirm());
        }

        /// <summary>Outside WebGL: a search box over Creators.Search and a Boost button over Boost.Change.</summary>
        private void DrawSearch()
        {
            var next = GUILayout.TextField(query);
            if (next != query)
            {
                query = next;
                var characters = CodePoints(query);
                if (characters >= 1 && characters <= 10) Fire("search", async () => found = await Creators.Search(query));
            }
            foreach (var creator in found)
            {
                var mark = creator.CreatorKey == selected ? "> " : "";
                if (GUILayout.Button(mark + creator.CreatorName + " (" + creator.Genre + ")")) selected = creator.CreatorKey;
            }
            if (selected != null && GUILayout.Button("Boost")) Fire("boost", async () => { var boost = await Boost.Change(selected, campaignId); status = "Boosting " + boost.CreatorName; });
        }

        /// <summary>npm start's toy login (its relay takes only a signed-in player's sessions); a real game has the token from its own sign-in.</summary>
        private async Task<string> SignIn()
        {
            if (string.IsNullOrEmpty(loginUrl)) return playerId;
            var body = Encoding.UTF8.GetBytes(Json.Serialize(new Dictionary<string, object> { { "userId", playerId } }));
            using (var request = new UnityWebRequest(loginUrl, "POST", new DownloadHandlerBuffer(), new UploadHandlerRaw(body)))
            {
                request.SetRequestHeader("Content-Type", "application/json");
                var answered = new TaskCompletionSource<bool>();
                request.SendWebRequest().completed += _ => answered.TrySetResult(true);
                await answered.Task;
                var answer = request.result == UnityWebRequest.Result.Success ? Json.Parse(request.downloadHandler.text) as Dictionary<string, object> : null;
                object token;
                if (answer == null || !answer.TryGetValue("token", out token) || !(token is string)) throw new InvalidOperationException("sign-in at " + loginUrl + " failed: " + (request.error ?? request.downloadHandler.text));
                return (string)token;
            }
        }

        /// <summary>The spec counts search text in characters (code points): an emoji is one, not its two UTF-16 units.</summary>
        private static int CodePoints(string text)
        {
            var count = 0;
            foreach (var unit in text) if (!char.IsLowSurrogate(unit)) count++;
            return count;
        }

        private void OnDestroy()
        {
            Tracker.Flushed -= OnFlushed;
            Tracker.Dropped -= OnDropped;
            Tracker.Error -= OnTrackerError;
            if (picker != null) picker.Dispose();
            Fire("dispose", GameCampaign.Dispose);
        }

        private async void Fire(string what, Func<Task> action)
        {
            await Run(what, action);
        }

        private async Task Run(string what, Func<Task> action)
        {
            try
            {
                await action();
            }
            catch (GameCampaignException error)
            {
                status = what + " failed: " + error;
                if (error.IsBoostCooldown) status = "Boost locked for " + error.DaysRemaining + " more days";
            }
            catch (InvalidOperationException error)
            {
                status = what + " failed: " + error.Message; // the sign-in
            }
        }
    }
}
