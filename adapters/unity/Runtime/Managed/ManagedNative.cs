// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.Text;
using System.Threading.Tasks;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// The bridge's other end outside a WebGL player (the Editor's Play mode, desktop and mobile builds): the methods
    /// GameCampaign.jslib answers, answered in C# by <see cref="ManagedSdk"/> over UnityWebRequest, with the same JSON
    /// envelopes and events, so <see cref="Tracker"/>, <see cref="Boost"/>, <see cref="Campaigns"/> and the rest behave
    /// alike on both. Like the jslib it answers from a later main-thread turn, never inside <see cref="Call"/>.
    /// Not here: the creator picker (WEBGL_ONLY; use <see cref="Creators.Search"/> and <see cref="Boost.Change(string, string)"/>),
    /// and <see cref="WebView.Closed"/> (the system browser tells nobody when it closes).
    /// </summary>
    internal sealed class ManagedNative : INative
    {
        private MessageCallback callback;
        private ManagedSdk sdk;
        /// <summary>The last SDK's wind-down: the next Init's tracker reads storage after it.</summary>
        private Task windDown = Task.FromResult(0);
        /// <summary>How long quitting waits for the last file writes, ms (a flushed write takes milliseconds).</summary>
        private const int QuitWaitMs = 2000;
        private static bool quittingHooked;
        private static ManagedNative current;

        public void Register(MessageCallback callback) { this.callback = callback; }

        public void Call(int requestId, string method, string argsJson)
        {
            Task<object> work;
            try { work = Invoke(method, Json.Obj(Json.Parse(argsJson)) ?? new Dictionary<string, object>()); }
            catch (Exception error) { work = Failed(error); }
            Answer(requestId, work);
        }

        /// <summary>The current SDK (tests read its queue).</summary>
        internal ManagedSdk Sdk { get { return sdk; } }

        private Task<object> Invoke(string method, Dictionary<string, object> args)
        {
            if (method == "init") return Init(args);
            // A second Dispose (OnDestroy, then OnApplicationQuit) completes with the first one's wind-down, as the WebGL bridge's
            // does: disposing is idempotent, never NOT_INITIALIZED. Before any Init there is nothing to wind down.
            if (method == "dispose" && sdk == null) return Then(windDown);
            if (sdk == null) throw new GameCampaignException(new ErrorInfo { Name = "GameCampaignBridgeError", Code = "NOT_INITIALIZED", Message = "call GameCampaign.Init first" });
            switch (method)
            {
                case "relay.headers": sdk.RelayHeaders = Json.StringMap(args, "headers") ?? new Dictionary<string, string>(); return Done();
                case "campaigns.get": return sdk.Read("/v1/client/campaigns/" + ManagedSdk.Segment(args, "campaignId"), "CampaignDetail");
                case "campaigns.listCreators": return sdk.Read("/v1/client/campaigns/" + ManagedSdk.Segment(args, "campaignId") + "/creators", "Creator", list: true);
                case "creators.get": return sdk.Read("/v1/client/creators/" + ManagedSdk.Segment(args, "creatorKey"), "Creator");
                case "creators.search": return sdk.Read("/v1/client/creators/search" + SearchQuery(args), "Creator", list: true);
                case "tracker.start": return Task.FromResult<object>(sdk.Tracker.Start(args));
                case "tracker.stop": return Then(sdk.Tracker.Stop());
                case "tracker.flush": return Then(sdk.Tracker.Flush());
                case "tracker.optOut": return Then(sdk.Tracker.SetOptOut(Json.Bool(args, "optOut") == true));
                case "tracker.deleteStoredData": return Then(sdk.Tracker.DeleteStoredData());
                case "boost.change": return sdk.RelayCall("PUT", "/sponsor", args, "BoostRecord", cooldown: true);
                case "boost.current": return sdk.Read("/v1/client/sponsors/user/" + Uri.EscapeDataString(sdk.UserId), "BoostRecord", nullWhenNotFound: true);
                case "webview.open": return sdk.OpenWebView(args);
                case "webview.close": sdk.CloseWebView(); return Done();
                case "dispose":
                    windDown = sdk.End();
                    sdk = null;
                    return Then(windDown);
            }
            if (method.StartsWith("picker.", StringComparison.Ordinal))
            {
                throw GameCampaignException.WebGlOnly();
            }
            throw new GameCampaignException(new ErrorInfo { Name = "GameCampaignBridgeError", Code = "UNKNOWN_METHOD", Message = "the bridge has no method " + method });
        }

        /// <summary>
        /// A new SDK (ending the previous one's session first); completes once its tracker has started up (storage
        /// read, a crashed session recovered, what an earlier run left queued being sent).
        /// </summary>
        private async Task<object> Init(Dictionary<string, object> args)
        {
            if (sdk != null) windDown = sdk.End();
            sdk = null;
            var created = new ManagedSdk(args, Emit, windDown);
            sdk = created;
            current = this;
            if (!quittingHooked)
            {
                // Leaving Play mode or quitting the player: the running session is stored, and sent by the next run.
                // Android and iOS do not send this when they kill a paused app: the checkpoints cover that.
                Application.quitting += OnQuitting;
                quittingHooked = true;
            }
            await created.Tracker.Ready;
            return null;
        }

        private static void OnQuitting()
        {
            var native = current;
            if (native == null || native.sdk == null) return;
            native.windDown = native.sdk.End();
            native.sdk = null;
            // The player exits once quitting's handlers return: the ended session's file write (off the main thread) must
            // be on disk by then. Its running record's delete waits for a main-thread turn that never comes; the next
            // start-up finds the session queued and deletes the record.
            IoQueue.WaitIdle(QuitWaitMs);
        }

        /// <summary>A new process, or Play mode entered again without a domain reload: no SDK, and quitting hooked again (Unity clears its events).</summary>
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        internal static void ResetStatics()
        {
            if (!Bridge.LastPlaySessionMayRemain) return;
            Application.quitting -= OnQuitting;
            quittingHooked = false;
            current = null;
        }

        private static string SearchQuery(Dictionary<string, object> args)
        {
            var query = new StringBuilder("?q=").Append(Uri.EscapeDataString(Json.Str(args, "query") ?? ""));
            var limit = Json.Long(args, "limit");
            if (limit.HasValue) query.Append("&limit=").Append(limit.Value);
            var isTest = Json.Bool(args, "isTest");
            if (isTest.HasValue) query.Append("&isTest=").Append(isTest.Value ? "true" : "false");
            return query.ToString();
        }

        private static Task<object> Done() { return Task.FromResult<object>(null); }

        private static async Task<object> Then(Task task)
        {
            await task;
            return null;
        }

        private static Task<object> Failed(Exception error)
        {
            var failed = new TaskCompletionSource<object>();
            failed.SetException(error);
            return failed.Task;
        }

        private async void Answer(int requestId, Task<object> work)
        {
            await Task.Yield(); // answered from a later turn of the main thread, as the jslib answers from a later task
            var message = new Dictionary<string, object> { { "id", (double)requestId } };
            try
            {
                message["value"] = await work;
                message["ok"] = true;
            }
            catch (Exception error)
            {
                message["ok"] = false;
                message["error"] = ErrorJson(error);
            }
            Send(message);
        }

        private void Emit(string name, object data)
        {
            Send(new Dictionary<string, object> { { "event", name }, { "data", data } });
        }

        /// <summary>
        /// An event or answer to <see cref="Bridge"/>. Written leniently: a value nested too deep for the bridge's JSON
        /// (metadata a release before <c>Tracker.Start</c>'s depth check stored) is <c>null</c> in it, rather than an
        /// exception in the tracker's start-up or flush, or an answer that never arrives.
        /// </summary>
        private void Send(Dictionary<string, object> message)
        {
            if (callback != null) callback(Json.Serialize(message, true));
        }

        private static Dictionary<string, object> ErrorJson(Exception error)
        {
            var typed = error as GameCampaignException;
            if (typed == null) return Bridge.Args("name", error.GetType().Name, "code", "CSHARP_ERROR", "message", error.Message);
            var info = new ErrorInfo
            {
                Name = typed.ErrorName,
                Code = typed.Code,
                Message = typed.Message,
                Status = typed.Status,
                Details = typed.Details.Count > 0 ? new List<ErrorDetail>(typed.Details) : null,
                DaysRemaining = typed.DaysRemaining,
                RetryAfterMs = typed.RetryAfterMs,
            };
            return info.ToJson();
        }
    }
}
#endif
