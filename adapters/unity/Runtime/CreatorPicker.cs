using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// The headless creator picker (<c>gc.picker({ campaignId })</c>): the state a boost screen needs, with no
    /// UI. Bind a list to <see cref="State"/> and redraw on <see cref="Changed"/>. The picker never throws into
    /// the UI: failures are <see cref="PickerState.Error"/>. A handler of <see cref="Changed"/> that throws is
    /// logged and the others still run.
    /// </summary>
    public sealed class CreatorPicker : IDisposable
    {
        /// <summary>
        /// The open pickers by handle, locked at every use: <see cref="Create"/>, <c>GameCampaign.Init</c> and
        /// <c>Dispose</c> change it on the thread they are called on (a worker, after an await with
        /// <c>ConfigureAwait(false)</c>), while events read it on the main thread. Unlocked, pickers created on two threads
        /// at once took one handle or were lost (4 threads creating 3,000 each left 6,000 to 9,000 registered), and never
        /// heard their events.
        /// </summary>
        private static readonly Dictionary<long, CreatorPicker> Open = new Dictionary<long, CreatorPicker>();
        // Handles are chosen here, not by JavaScript, so a picker is registered before its "picker.open" is sent.
        // Never reset: a late event of a picker of the last Play session cannot reach a new one.
        private static long nextHandle;
        private readonly long handle;
        private bool disposed;
        private bool changedBeforeOpen;

        static CreatorPicker()
        {
            Bridge.EventReceived += OnEvent;
        }

        private CreatorPicker(long handle)
        {
            this.handle = handle;
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
            // Registered before the await: the picker's "picker:change" events can arrive before this method resumes
            // (its answer is read on a later frame), and each one is kept as the newest state.
            var picker = new CreatorPicker(Interlocked.Increment(ref nextHandle));
            lock (Open) Open[picker.handle] = picker;
            object opened;
            try
            {
                opened = await Bridge.Call("picker.open", Bridge.Args("picker", picker.handle, "campaignId", campaignId, "debounceMs", debounceMs, "limit", limit, "isTest", isTest));
            }
            catch
            {
                picker.Forget();
                throw;
            }
            if (!picker.changedBeforeOpen) picker.State = PickerState.FromJson(Json.Field(Json.Obj(opened), "state"));
            return picker;
        }

        /// <summary>Sets the search query (debounced in JavaScript; 1 to 10 characters are sent, others clear the results).</summary>
        public Task Search(string query) { return Send("picker.search", Bridge.Args("query", query ?? "")); }

        /// <summary>Selects a creator by key (null: none); a key as typed, in any case and with spaces around it, is the creator it names.</summary>
        public Task Select(string creatorKey) { return Send("picker.select", Bridge.Args("creatorKey", creatorKey)); }

        /// <summary>
        /// Boosts the selected creator. Never fails: completes with the new boost, or null when nothing changed
        /// (during the cooldown nothing is sent and <see cref="PickerState.CooldownDays"/> says how long; errors are <see cref="PickerState.Error"/>).
        /// </summary>
        /// <param name="callbackId">Carried by the <c>sponsor.changed</c> webhook, to match it to this change; the relay binds it to the player (<c>relay:&lt;userId length&gt;:&lt;userId&gt;:&lt;callbackId&gt;</c>: <c>relayCallbackId</c> on the game server).</param>
        public async Task<BoostRecord> Confirm(string callbackId = null)
        {
            return BoostRecord.FromJson(await Send("picker.confirm", Bridge.Args("callbackId", callbackId)));
        }

        /// <summary>Stops the picker's requests and events.</summary>
        public void Dispose()
        {
            if (disposed) return;
            Forget();
            LogFailure(Send("picker.dispose", null));
        }

        /// <summary>Forgets every picker (the JavaScript side dropped them with the facade) and their handlers.</summary>
        internal static void ForgetAll()
        {
            List<CreatorPicker> open;
            lock (Open) open = new List<CreatorPicker>(Open.Values);
            foreach (var picker in open) picker.Forget();
        }

        /// <summary>Enter Play Mode with domain reload off: the pickers of the last session and their handlers go (see <see cref="Bridge.ResetForPlayMode"/>).</summary>
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        internal static void ResetForPlayMode()
        {
            if (!Bridge.LastPlaySessionMayRemain) return;
            ForgetAll();
        }

        private void Forget()
        {
            disposed = true;
            Changed = null; // a disposed picker raises nothing, and holds no destroyed object alive
            lock (Open) Open.Remove(handle);
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
            if (name != "picker:change") return;
            CreatorPicker picker;
            bool found;
            lock (Open) found = Open.TryGetValue(Json.Long(message, "picker") ?? 0, out picker);
            if (!found) return;
            picker.State = PickerState.FromJson(Json.Field(message, "data"));
            picker.changedBeforeOpen = true;
            EventHandlers.Raise(picker.Changed, picker.State);
        }
    }
}
