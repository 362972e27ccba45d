using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using AOT;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// The C# end of the bridge: every call gets a request id and a pending Task; the jslib answers through
    /// one static [MonoPInvokeCallback] with a JSON envelope, <c>{"id":1,"ok":true,"value":...}</c> or
    /// <c>{"id":1,"ok":false,"error":{...}}</c>, and pushes events as <c>{"event":"flushed","data":...}</c>.
    /// Every Task of <see cref="Call"/> completes (answered, or failed with a <see cref="GameCampaignException"/>
    /// whatever went wrong on the way), and its pending entry goes with it.
    /// </summary>
    internal static class Bridge
    {
        private static readonly Dictionary<int, TaskCompletionSource<object>> Pending = new Dictionary<int, TaskCompletionSource<object>>();
        private static readonly MessageCallback Callback = OnMessage;
        private static INative native;
        private static bool registered;
        private static int nextId;
        /// <summary>Unity's main thread (where the SDK runs and raises its events) and its SynchronizationContext, once seen.</summary>
        private static int mainThread;
        private static SynchronizationContext mainContext;

        /// <summary>The JavaScript side; tests replace it.</summary>
        internal static INative Native
        {
            get { return native ?? (native = NativeDefault.Create()); }
            set { native = value; registered = false; }
        }

        /// <summary>
        /// Event envelopes (<c>event</c>, <c>data</c>, and <c>picker</c> for picker events). Its handlers are the SDK's
        /// own dispatchers (<see cref="CreatorPicker"/>, <see cref="WebView"/>, <see cref="Tracker"/>), added once by
        /// their static constructors; a handler that throws is logged and the others still run.
        /// </summary>
        internal static event Action<string, Dictionary<string, object>> EventReceived;

        /// <summary>
        /// Enter Play Mode with domain reload off keeps every static (Unity manual, "Domain Reloading"): this puts the
        /// bridge back as a fresh domain has it, before any scene loads. The native side of the last Play session is
        /// disposed when it can be (<see cref="IDisposable"/>) and dropped, so the next call makes a new one; calls
        /// still pending are forgotten, not completed, as a domain reload forgets them (their continuations belong
        /// to objects of the last session). Kept: <see cref="EventReceived"/>, whose handlers are the SDK's static
        /// dispatchers (static constructors do not run again without a domain reload, so clearing it would cut
        /// them off for good), and the request counter, so an answer of the last session never completes a new call.
        /// In a player (a fresh domain: <see cref="LastPlaySessionMayRemain"/>) only the main thread and its context are taken.
        /// </summary>
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        internal static void ResetForPlayMode()
        {
            // Unity calls this on the main thread: its context now (the live one; null if Unity has none yet) is where a call
            // made on another thread before BeforeSceneLoad goes (a game's own SubsystemRegistration method starting the SDK
            // from Task.Run); TakeMainContext and each call made on the main thread take it again.
            mainThread = Thread.CurrentThread.ManagedThreadId;
            mainContext = SynchronizationContext.Current;
            if (!LastPlaySessionMayRemain) return;
            var previous = native as IDisposable;
            native = null;
            registered = false;
            Pending.Clear();
            if (previous == null) return;
            try { previous.Dispose(); }
            catch (Exception error) { Debug.LogException(error); }
        }

        /// <summary>
        /// Whether statics may still hold the last Play session's objects: only in the Editor with Enter Play Mode Options on
        /// and domain reload off (<see cref="DomainReloadDisabled"/>). A player, and the Editor reloading the domain as Play
        /// mode starts (its default), start with fresh statics, so what they hold at <c>SubsystemRegistration</c> was made in
        /// this Play session: by a game's own <c>[RuntimeInitializeOnLoadMethod(SubsystemRegistration)]</c> that Unity called
        /// before the package's (no order is guaranteed within a load type), whose <c>Init</c>, handlers and tracker the resets
        /// disposed. Each of the package's <c>SubsystemRegistration</c> resets returns at once when this is false.
        /// </summary>
        internal static bool LastPlaySessionMayRemain { get { return Application.isEditor && DomainReloadDisabled; } }

#if UNITY_EDITOR
        /// <summary>
        /// Unity's documented switches (Scripting API, <c>EditorSettings.enterPlayModeOptionsEnabled</c> and
        /// <c>EditorSettings.enterPlayModeOptions</c>, 2019.3 to Unity 6; <c>EnterPlayModeOptions.DisableDomainReload</c>:
        /// "scripts are not reloaded when entering Play Mode"): the options only apply while enabled. Read on the main thread,
        /// where Unity runs the <c>SubsystemRegistration</c> resets that ask.
        /// </summary>
        private static bool DomainReloadDisabled
        {
            get { return UnityEditor.EditorSettings.enterPlayModeOptionsEnabled && (UnityEditor.EditorSettings.enterPlayModeOptions & UnityEditor.EnterPlayModeOptions.DisableDomainReload) != 0; }
        }
#else
        /// <summary>Outside the Editor's assemblies <c>Application.isEditor</c> is false; the test stand-ins, compiled without <c>UNITY_EDITOR</c>, model an Editor with domain reload off.</summary>
        private static bool DomainReloadDisabled { get { return true; } }
#endif

        /// <summary>
        /// Takes the main thread's SynchronizationContext as the player starts, before any scene (Unity has installed its
        /// UnitySynchronizationContext by then: Mixed Reality Toolkit's SyncContextUtility takes it at the same point): a game whose first SDK call is made on another thread (Init after an
        /// <c>await</c> with <c>ConfigureAwait(false)</c>) had no call on the main thread to take it from, so Init ran on
        /// that thread (where Unity's <c>persistentDataPath</c> and <c>GameObject</c> throw), and every call and event after it.
        /// </summary>
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.BeforeSceneLoad)]
        internal static void TakeMainContext()
        {
            if (Thread.CurrentThread.ManagedThreadId == mainThread && SynchronizationContext.Current != null) mainContext = SynchronizationContext.Current;
        }

        /// <summary>
        /// Calls <paramref name="method"/> in JavaScript; the Task completes when its answer arrives. A call made on another
        /// thread (after an <c>await</c> with <c>ConfigureAwait(false)</c>, in <c>Task.Run</c>) is made on the main thread, the
        /// next time it runs posted work: the SDK, its timers and its events belong to the main thread (Unity's API too).
        /// Its arguments are written as JSON on the calling thread, so the call sends them as they were when it was made.
        /// </summary>
        internal static Task<object> Call(string method, Dictionary<string, object> args)
        {
            string json;
            try { json = Json.Serialize(args ?? new Dictionary<string, object>()); }
            catch (Exception error) { return Failed(new GameCampaignException("VALIDATION_ERROR", method + ": the arguments cannot be written as JSON (" + error.Message + ")", error)); }
            var context = MainContext();
            if (context == null) return Send(method, json);
            var forwarded = new TaskCompletionSource<object>(TaskCreationOptions.RunContinuationsAsynchronously);
            try { context.Post(_ => Forward(Send(method, json), forwarded), null); }
            catch (Exception error) { forwarded.TrySetException(new GameCampaignException("BRIDGE_ERROR", method + ": the main thread did not take the call (" + error.Message + ")", error)); }
            return forwarded.Task;
        }

        /// <summary>
        /// The main thread's context when this is another thread; null on the main thread, or before a call was made there
        /// (then the call is made here, as before). Each call on the main thread takes its current context: the live one.
        /// </summary>
        private static SynchronizationContext MainContext()
        {
            var current = Thread.CurrentThread.ManagedThreadId;
            if (mainThread == 0 && SynchronizationContext.Current != null) mainThread = current; // the first call with a context: Unity's main thread
            if (current != mainThread) return mainContext;
            if (SynchronizationContext.Current != null) mainContext = SynchronizationContext.Current;
            return null;
        }

        private static async void Forward(Task<object> call, TaskCompletionSource<object> forwarded)
        {
            try { forwarded.TrySetResult(await call); }
            catch (Exception error) { forwarded.TrySetException(error); }
        }

        private static Task<object> Failed(Exception error)
        {
            var failed = new TaskCompletionSource<object>(TaskCreationOptions.RunContinuationsAsynchronously);
            failed.TrySetException(error);
            return failed.Task;
        }

        /// <summary>Sends one call (on the main thread) and keeps its Task pending until its answer arrives.</summary>
        private static Task<object> Send(string method, string json)
        {
            // Continuations run after the callback returned to JavaScript, never inside it.
            var pending = new TaskCompletionSource<object>(TaskCreationOptions.RunContinuationsAsynchronously);
            var id = ++nextId;
            Pending[id] = pending;
            try
            {
                if (!registered)
                {
                    Native.Register(Callback);
                    registered = true;
                }
                Native.Call(id, method, json);
            }
            catch (Exception error)
            {
                // Whatever was thrown (a missing plugin, a bug): the Task fails, the entry goes.
                Pending.Remove(id);
                pending.TrySetException(error as GameCampaignException ?? new GameCampaignException("BRIDGE_ERROR", method + ": " + error.Message, error));
            }
            return pending.Task;
        }

        /// <summary>Like <see cref="Call"/>, with the answer read by <paramref name="read"/>.</summary>
        internal static async Task<T> Call<T>(string method, Dictionary<string, object> args, Func<object, T> read)
        {
            return read(await Call(method, args));
        }

        /// <summary>Requests still waiting for an answer.</summary>
        internal static int PendingCount { get { return Pending.Count; } }

        /// <summary>Every message from JavaScript. Never throws back into JavaScript.</summary>
        [MonoPInvokeCallback(typeof(MessageCallback))]
        internal static void OnMessage(string json)
        {
            try
            {
                var message = Json.Parse(json) as Dictionary<string, object>;
                if (message == null) throw new FormatException("not a JSON object");
                var eventName = Json.Str(message, "event");
                if (eventName != null)
                {
                    EventHandlers.Raise(EventReceived, eventName, message);
                    return;
                }
                var id = (int)(Json.Long(message, "id") ?? 0);
                TaskCompletionSource<object> pending;
                if (!Pending.TryGetValue(id, out pending)) throw new InvalidOperationException("no request " + id + " is waiting");
                Pending.Remove(id);
                if (Json.Bool(message, "ok") == true) pending.TrySetResult(Json.Field(message, "value"));
                else pending.TrySetException(ErrorOf(Json.Field(message, "error")));
            }
            catch (Exception error)
            {
                Debug.LogException(error);
                FailUnreadable(json, error);
            }
        }

        /// <summary>
        /// An answer C# cannot read (a value nested deeper than <see cref="Json.MaxDepth"/>: a server's reply) still
        /// fails its call, named by the id the envelope starts with (the jslib writes it first), rather than leaving it
        /// waiting forever.
        /// </summary>
        private static void FailUnreadable(string json, Exception error)
        {
            const string Start = "{\"id\":";
            if (json == null || !json.StartsWith(Start, StringComparison.Ordinal)) return;
            var end = json.IndexOf(',', Start.Length);
            int id;
            TaskCompletionSource<object> pending;
            if (end < 0 || !int.TryParse(json.Substring(Start.Length, end - Start.Length), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out id) || !Pending.TryGetValue(id, out pending)) return;
            Pending.Remove(id);
            pending.TrySetException(new GameCampaignException("BRIDGE_ERROR", "the answer could not be read: " + error.Message, error));
        }

        /// <summary>The exception of an error answer; one that cannot be read still fails its call (BRIDGE_ERROR), never leaves it waiting.</summary>
        private static GameCampaignException ErrorOf(object error)
        {
            try { return new GameCampaignException(ErrorInfo.FromJson(error)); }
            catch (Exception unreadable) { return new GameCampaignException("BRIDGE_ERROR", "the error answer could not be read: " + unreadable.Message, unreadable); }
        }

        /// <summary>Builds an argument object from name/value pairs, leaving out nulls.</summary>
        internal static Dictionary<string, object> Args(params object[] pairs)
        {
            var args = new Dictionary<string, object>();
            for (var i = 0; i + 1 < pairs.Length; i += 2) Json.Put(args, (string)pairs[i], pairs[i + 1]);
            return args;
        }
    }
}
