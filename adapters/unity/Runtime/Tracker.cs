using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// The offline playtime tracker: sessions are stored on the device and sent through the relay, each once,
    /// surviving restarts and lost connections. In a WebGL player it is the JavaScript SDK's (IndexedDB; reloads and
    /// tab switches too); in the Editor and other players the C# one (a file per session
    /// under <c>Application.persistentDataPath</c>; docs/guides/unity.md says what each platform guarantees). Events
    /// are raised on the main thread; a handler that throws is logged and does not stop the others.
    /// </summary>
    public static class Tracker
    {
        /// <summary>A session started.</summary>
        public static event Action<SessionStartEvent> SessionStarted;
        /// <summary>A session ended (stop, restart, background time-out, dispose, or recovered after a crash).</summary>
        public static event Action<SessionEndEvent> SessionEnded;
        /// <summary>The service acknowledged these sessions.</summary>
        public static event Action<FlushedEvent> Flushed;
        /// <summary>A session will never be sent, and why.</summary>
        public static event Action<DroppedEvent> Dropped;
        /// <summary>Something the game should know (e.g. the relay refused its credentials); no session is lost by it.</summary>
        public static event Action<TrackerError> Error;

        static Tracker()
        {
            Listen();
        }

        /// <summary>
        /// (Re)subscribes to the bridge's events: on first use and at every Init, so a reset of the bridge's statics
        /// cannot leave the tracker deaf; never twice. Locked: each of <c>-=</c> and <c>+=</c> is atomic alone, the pair
        /// is not, so two Inits on two threads could both remove, then both add, and every event was raised twice.
        /// </summary>
        internal static void Listen()
        {
            lock (ListenLock)
            {
                Bridge.EventReceived -= OnEvent;
                Bridge.EventReceived += OnEvent;
            }
        }

        private static readonly object ListenLock = new object();

        /// <summary>
        /// Forgets every handler: with Enter Play Mode Options' domain reload off, handlers of objects destroyed in the
        /// last Play mode session would otherwise still be called.
        /// </summary>
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        internal static void ResetStatics()
        {
            if (!Bridge.LastPlaySessionMayRemain) return;
            SessionStarted = null;
            SessionEnded = null;
            Flushed = null;
            Dropped = null;
            Error = null;
        }

        /// <summary>Starts a play session (ending the running one); completes with its session id.</summary>
        /// <exception cref="GameCampaignException">VALIDATION_ERROR for a malformed creator key, campaign id or metadata.</exception>
        public static Task<string> Start(string campaignId = null, string creatorKey = null, Dictionary<string, object> metadata = null)
        {
            if (Json.NestsDeeperThan(metadata, MetadataMaxDepth))
            {
                var detail = new ErrorDetail { Path = "start.metadata", Message = "must not nest deeper than " + MetadataMaxDepth + " arrays and objects" };
                var refused = new TaskCompletionSource<string>();
                refused.SetException(GameCampaignException.Invalid(new List<ErrorDetail> { detail }));
                return refused.Task;
            }
            return Bridge.Call("tracker.start", Bridge.Args("campaignId", campaignId, "creatorKey", creatorKey, "metadata", metadata), value => value as string);
        }

        /// <summary>
        /// How deep a session's metadata may nest: the relay refuses a request body deeper than 64 levels, and its
        /// <c>{"sessions":[{"metadata":…}]}</c> holds it 3 levels down, as the <c>session:end</c> and <c>dropped</c>
        /// events' JSON does (which <see cref="Json"/> reads and writes at most 64 deep). Deeper metadata made the
        /// managed tracker's <c>Stop</c> throw and every later start-up fail, and WebGL's events of it unreadable.
        /// </summary>
        private const int MetadataMaxDepth = Json.MaxDepth - 3;

        /// <summary>Ends the running session and queues it; completes once it is stored. No session: nothing happens.</summary>
        public static Task Stop()
        {
            return Bridge.Call("tracker.stop", null);
        }

        /// <summary>Sends every queued session now; outcomes arrive as <see cref="Flushed"/> and <see cref="Dropped"/>.</summary>
        public static Task Flush()
        {
            return Bridge.Call("tracker.flush", null);
        }

        /// <summary>
        /// The player's off switch, stored per player on this device (it survives restarts and wins over
        /// <see cref="GameCampaignOptions.OptOut"/>). Off ends the running session without recording it
        /// (<see cref="Dropped"/>, <see cref="DropReason.OptedOut"/>); nothing is sent while off; sessions queued before
        /// stay on the device until switched back on (then they are sent) or erased. <see cref="Start"/> returns ""
        /// and records nothing while off. Completes once the choice is stored.
        /// </summary>
        /// <exception cref="GameCampaignException">when the choice could not be stored (it holds for this run regardless).</exception>
        public static Task SetOptOut(bool optOut)
        {
            return Bridge.Call("tracker.optOut", Bridge.Args("optOut", optOut));
        }

        /// <summary>
        /// Erases everything this player stored on this device: the running session and the queue, each reported as
        /// <see cref="Dropped"/> (<see cref="DropReason.Erased"/>). Keeps the opt-out choice; other players' data is untouched.
        /// </summary>
        public static Task DeleteStoredData()
        {
            return Bridge.Call("tracker.deleteStoredData", null);
        }

        private static void OnEvent(string name, Dictionary<string, object> message)
        {
            var data = Json.Field(message, "data");
            switch (name)
            {
                case "session:start": EventHandlers.Raise(SessionStarted, SessionStartEvent.FromJson(data)); break;
                case "session:end": EventHandlers.Raise(SessionEnded, SessionEndEvent.FromJson(data)); break;
                case "flushed": EventHandlers.Raise(Flushed, FlushedEvent.FromJson(data)); break;
                case "dropped": EventHandlers.Raise(Dropped, DroppedEvent.FromJson(data)); break;
                case "error": EventHandlers.Raise(Error, TrackerError.FromJson(data)); break;
            }
        }
    }
}
