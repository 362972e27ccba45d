using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// The offline playtime tracker: sessions are stored on the device and sent through the relay, each once,
    /// surviving restarts and lost connections. In a WebGL player it is the JavaScript SDK's (IndexedDB; reloads and
    /// tab switches too); in the Editor and other players the C# one (a file per player in
    /// <c>Application.persistentDataPath</c>). Events are raised on the main thread; a handler that throws is
    /// logged and does not stop the others.
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
            Bridge.EventReceived += OnEvent;
        }

        /// <summary>Starts a play session (ending the running one); completes with its session id.</summary>
        /// <exception cref="GameCampaignException">VALIDATION_ERROR for a malformed creator key, campaign id or metadata.</exception>
        public static Task<string> Start(string campaignId = null, string creatorKey = null, Dictionary<string, object> metadata = null)
        {
            return Bridge.Call("tracker.start", Bridge.Args("campaignId", campaignId, "creatorKey", creatorKey, "metadata", metadata), value => value as string);
        }

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

        private static void OnEvent(string name, Dictionary<string, object> message)
        {
            var data = Json.Field(message, "data");
            switch (name)
            {
                case "session:start": Raise(SessionStarted, SessionStartEvent.FromJson(data)); break;
                case "session:end": Raise(SessionEnded, SessionEndEvent.FromJson(data)); break;
                case "flushed": Raise(Flushed, FlushedEvent.FromJson(data)); break;
                case "dropped": Raise(Dropped, DroppedEvent.FromJson(data)); break;
                case "error": Raise(Error, TrackerError.FromJson(data)); break;
            }
        }

        private static void Raise<T>(Action<T> handlers, T payload)
        {
            if (handlers == null) return;
            foreach (Action<T> handler in handlers.GetInvocationList())
            {
                try { handler(payload); }
                catch (Exception error) { Debug.LogException(error); }
            }
        }
    }
}
