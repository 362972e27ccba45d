using System.Collections.Generic;
using System.Threading.Tasks;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>The campaign web view (PKCE and a one-time token through the relay).</summary>
    public static class WebView
    {
        /// <summary>Raised when the web view opened last has closed (the player, the page, or <see cref="Close"/>); not for a page a later <see cref="Open"/> replaced, and an <see cref="Open"/> that fails leaves the one before it the last. A handler that throws is logged and the others still run.</summary>
        public static event System.Action Closed;

        static WebView()
        {
            Bridge.EventReceived += OnEvent;
        }

        /// <summary>Enter Play Mode with domain reload off: the handlers of the last session (of destroyed objects) go (see <see cref="Bridge.ResetForPlayMode"/>).</summary>
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        internal static void ResetForPlayMode()
        {
            if (!Bridge.LastPlaySessionMayRemain) return;
            Closed = null;
        }

        private static void OnEvent(string name, Dictionary<string, object> message)
        {
            if (name == "webview:closed") EventHandlers.Raise(Closed);
        }

        /// <summary>Opens the web view; the Task completes once it is open. Opening again closes the first; of two calls in a row (a double tap) the one called last is shown and the other completes without showing (in the system browser, outside WebGL, it is never opened).</summary>
        public static Task Open(WebViewOpenOptions options)
        {
            return Bridge.Call("webview.open", (options ?? new WebViewOpenOptions()).ToJson());
        }

        /// <summary>Closes the web view opened last, if it is still open, and one still opening (the player went back while it loaded): it then never shows and its <see cref="Open"/> completes (in WebGL <see cref="Closed"/> is raised). Outside WebGL a page already in the system browser stays (nobody can close it).</summary>
        public static Task Close()
        {
            return Bridge.Call("webview.close", null);
        }
    }
}
