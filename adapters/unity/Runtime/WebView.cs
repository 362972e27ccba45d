using System.Threading.Tasks;

namespace GameCampaignSdk
{
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
}
