using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// The headless creator picker (<c>gc.picker({ campaignId })</c>): the state a boost screen needs, with no
    /// UI. Bind a list to <see cref="State"/> and redraw on <see cref="Changed"/>. The picker never throws into
    /// the UI: failures are <see cref="PickerState.Error"/>.
    /// </summary>
    public sealed class CreatorPicker : IDisposable
    {
        private static readonly Dictionary<long, CreatorPicker> Open = new Dictionary<long, CreatorPicker>();
        private readonly long handle;
        private bool disposed;

        static CreatorPicker()
        {
            Bridge.EventReceived += OnEvent;
        }

        private CreatorPicker(long handle, PickerState state)
        {
            this.handle = handle;
            State = state;
        }

        /// <summary>The latest state.</summary>
        public PickerState State { get; private set; }

        /// <summary>Raised with the new state whenever it changes (search results, selection, confirming, errors).</summary>
        public event Action<PickerState> Changed;

        /// <summary>Creates a picker for a campaign; completes with its first state (it goes on loading the campaign, its creators and the player's boost).</summary>
        /// <param name="campaignId">The campaign whose creators are offered, and of the boost change.</param>
        /// <param name="debounceMs">Quiet time after the last keystroke before a search is sent (JavaScript default 250 ms).</param>
        /// <param name="limit">At most this many search results (1 to 100).</param>
        /// <param name="isTest">Search and boost in test mode (mock data, nothing recorded).</param>
        public static async Task<CreatorPicker> Create(string campaignId, int? debounceMs = null, int? limit = null, bool? isTest = null)
        {
            var value = Json.Obj(await Bridge.Call("picker.open", Bridge.Args("campaignId", campaignId, "debounceMs", debounceMs, "limit", limit, "isTest", isTest)));
            var picker = new CreatorPicker(Json.Long(value, "picker") ?? 0, PickerState.FromJson(Json.Field(value, "state")));
            Open[picker.handle] = picker;
            return picker;
        }

        /// <summary>Sets the search query (debounced in JavaScript; 1 to 10 characters are sent, others clear the results).</summary>
        public Task Search(string query) { return Send("picker.search", Bridge.Args("query", query ?? "")); }

        /// <summary>Selects a creator by key (null: none).</summary>
        public Task Select(string creatorKey) { return Send("picker.select", Bridge.Args("creatorKey", creatorKey)); }

        /// <summary>
        /// Boosts the selected creator. Never fails: completes with the new boost, or null when nothing changed
        /// (during the cooldown nothing is sent and <see cref="PickerState.CooldownDays"/> says how long; errors are <see cref="PickerState.Error"/>).
        /// </summary>
        /// <param name="callbackId">Carried by the <c>sponsor.changed</c> webhook, to match it to this change.</param>
        public async Task<BoostRecord> Confirm(string callbackId = null)
        {
            return BoostRecord.FromJson(await Send("picker.confirm", Bridge.Args("callbackId", callbackId)));
        }

        /// <summary>Stops the picker's requests and events.</summary>
        public void Dispose()
        {
            if (disposed) return;
            disposed = true;
            Open.Remove(handle);
            LogFailure(Send("picker.dispose", null));
        }

        /// <summary>Forgets every picker (the JavaScript side dropped them with the facade).</summary>
        internal static void ForgetAll()
        {
            foreach (var picker in Open.Values) picker.disposed = true;
            Open.Clear();
        }

        // Awaited rather than ContinueWith: the continuation stays on Unity's main thread (WebGL has no thread pool threads).
        private static async void LogFailure(Task task)
        {
            try { await task; }
            catch (Exception error) { Debug.LogException(error); }
        }

        private Task<object> Send(string method, Dictionary<string, object> args)
        {
            if (disposed && method != "picker.dispose") throw new ObjectDisposedException("CreatorPicker");
            var withHandle = args ?? new Dictionary<string, object>();
            withHandle["picker"] = (double)handle;
            return Bridge.Call(method, withHandle);
        }

        private static void OnEvent(string name, Dictionary<string, object> message)
        {
            CreatorPicker picker;
            if (name != "picker:change" || !Open.TryGetValue(Json.Long(message, "picker") ?? 0, out picker)) return;
            picker.State = PickerState.FromJson(Json.Field(message, "data"));
            var handlers = picker.Changed;
            if (handlers == null) return;
            try { handlers(picker.State); }
            catch (Exception error) { Debug.LogException(error); }
        }
    }
}
