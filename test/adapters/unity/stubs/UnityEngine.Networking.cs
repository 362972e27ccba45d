// The members of UnityEngine.AsyncOperation, UnityEngine.Application and UnityEngine.Networking.UnityWebRequest
// the package uses outside WebGL, with Unity's signatures (Scripting API: Networking.UnityWebRequest,
// UnityWebRequest.Result, UnityWebRequestAsyncOperation, DownloadHandlerBuffer, UploadHandlerRaw,
// AsyncOperation.completed, Application.persistentDataPath / internetReachability / OpenURL / quitting / Quit; docs.unity3d.com/ScriptReference).
// Behaviour follows those pages where the package relies on it:
// - a request runs off the main thread and `completed` is raised on the main thread (the SynchronizationContext of
//   the thread that called SendWebRequest, Unity's UnitySynchronizationContext); a handler added after completion
//   runs at once ("If a handler is registered after the operation has completed ... called synchronously");
// - `result` is ConnectionError when no response arrived, ProtocolError for a 4xx/5xx ("response codes 4xx and 5xx
//   mean errors"), and the body of an error response is still in `downloadHandler.text`.
// - SetRequestHeader refuses "certain illegal characters, such as control characters" with an ArgumentException
//   (UnityWebRequest.SetRequestHeader: "Neither string may contain certain illegal characters").
// HTTP goes through System.Net.HttpWebRequest (System.dll): Debian's mono runtime here has no System.Net.Http.
// Stand-in only: `persistentDataPath` comes from GAME_CAMPAIGN_PERSISTENT_DATA_PATH, OpenURL records the URLs.
using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Text;
using System.Threading;

namespace UnityEngine
{
    public class AsyncOperation
    {
        private readonly object gate = new object();
        private Action<AsyncOperation> handlers;

        public bool isDone { get; private set; }

        public event Action<AsyncOperation> completed
        {
            add
            {
                lock (gate)
                {
                    if (!isDone) { handlers += value; return; }
                }
                value(this);
            }
            remove { lock (gate) handlers -= value; }
        }

        /// <summary>Stand-in only: marks the operation done and raises <see cref="completed"/> (on the caller's thread).</summary>
        protected void Complete()
        {
            Action<AsyncOperation> toRun;
            lock (gate)
            {
                isDone = true;
                toRun = handlers;
                handlers = null;
            }
            if (toRun != null) toRun(this);
        }
    }

    public static class Application
    {
        /// <summary>Stand-in only: every URL OpenURL was given.</summary>
        public static readonly List<string> OpenedUrls = new List<string>();

        public static string persistentDataPath
        {
            get { return Environment.GetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH") ?? Path.Combine(Path.GetTempPath(), "unity-persistent"); }
        }

        /// <summary>Stand-in only: what <see cref="isEditor"/> answers (tests play a built player with false).</summary>
        public static bool Editor = true;

        public static bool isEditor { get { return Editor; } }

        /// <summary>Stand-in only: what <see cref="isMobilePlatform"/> answers (tests play an Android or iOS player).</summary>
        public static bool MobilePlatform = false;

        /// <summary>Scripting API: whether the player runs on a known mobile platform (Android, iOS).</summary>
        public static bool isMobilePlatform { get { return MobilePlatform; } }

        /// <summary>Stand-in only: what <see cref="isFocused"/> answers (tests start a game whose window is behind another).</summary>
        public static bool Focused = true;

        /// <summary>Scripting API: whether the player has focus now (in the Editor, the Game view); OnApplicationFocus tells only its changes.</summary>
        public static bool isFocused { get { return Focused; } }

        /// <summary>Stand-in only: what <see cref="isBatchMode"/> answers (tests play a headless run: CI's Play mode tests, a server build).</summary>
        public static bool BatchMode = false;

        /// <summary>Scripting API: whether Unity was started with -batchmode (no window, so no focus).</summary>
        public static bool isBatchMode { get { return BatchMode; } }

        /// <summary>Stand-in only: what <see cref="internetReachability"/> answers (tests switch the network off and on).</summary>
        public static NetworkReachability Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;

        /// <summary>Scripting API: whether the device can reach the internet, by its network type (not a promise that a request succeeds).</summary>
        public static NetworkReachability internetReachability { get { return Reachability; } }

        public static event Action quitting;

        /// <summary>Stand-in only: how many handlers <see cref="quitting"/> holds.</summary>
        public static int QuittingHandlerCount { get { return quitting == null ? 0 : quitting.GetInvocationList().Length; } }

        public static void OpenURL(string url) { OpenedUrls.Add(url); }

        /// <summary>In a player, quits; the stand-in raises <see cref="quitting"/> as Unity does first.</summary>
        public static void Quit()
        {
            var handlers = quitting;
            if (handlers != null) handlers();
        }
    }
}

namespace UnityEngine.Networking
{
    public abstract class DownloadHandler : IDisposable
    {
        internal byte[] received = new byte[0];
        public byte[] data { get { return received; } }
        public string text { get { return Encoding.UTF8.GetString(received); } }
        public void Dispose() { }
    }

    public sealed class DownloadHandlerBuffer : DownloadHandler { }

    public abstract class UploadHandler : IDisposable
    {
        internal byte[] payload;
        public byte[] data { get { return payload; } }
        public string contentType { get; set; }
        public void Dispose() { }
    }

    public sealed class UploadHandlerRaw : UploadHandler
    {
        public UploadHandlerRaw(byte[] data) { payload = data; }
    }

    public sealed class UnityWebRequestAsyncOperation : AsyncOperation
    {
        internal UnityWebRequestAsyncOperation(UnityWebRequest request) { webRequest = request; }
        public UnityWebRequest webRequest { get; private set; }
        internal void Finish() { Complete(); }
    }

    public class UnityWebRequest : IDisposable
    {
        public enum Result { InProgress, Success, ConnectionError, ProtocolError, DataProcessingError }

        public const string kHttpVerbGET = "GET";
        public const string kHttpVerbPOST = "POST";
        public const string kHttpVerbPUT = "PUT";

        private readonly Dictionary<string, string> requestHeaders = new Dictionary<string, string>();
        private WebHeaderCollection responseHeaders = new WebHeaderCollection();

        public UnityWebRequest(string url, string method, DownloadHandler downloadHandler, UploadHandler uploadHandler)
        {
            this.url = url;
            this.method = method;
            this.downloadHandler = downloadHandler;
            this.uploadHandler = uploadHandler;
        }

        public string url { get; set; }
        public string method { get; set; }
        public DownloadHandler downloadHandler { get; set; }
        public UploadHandler uploadHandler { get; set; }
        /// <summary>Seconds; 0 means none.</summary>
        public int timeout { get; set; }
        public Result result { get; private set; }
        public long responseCode { get; private set; }
        public string error { get; private set; }

        public static UnityWebRequest Get(string uri) { return new UnityWebRequest(uri, kHttpVerbGET, new DownloadHandlerBuffer(), null); }

        /// <summary>As Unity's: a name or value holding a control character (a name also a space) is refused with an ArgumentException.</summary>
        public void SetRequestHeader(string name, string value)
        {
            if (string.IsNullOrEmpty(name) || value == null) throw new ArgumentException("Cannot set a Request Header with a null or empty name, or a null value");
            foreach (var c in name) if (c < 33 || c == 127) throw new ArgumentException("Cannot set Request Header " + name + " - name contains illegal characters or is not user-overridable");
            foreach (var c in value) if (c < 32 || c == 127) throw new ArgumentException("Cannot set Request Header - value contains illegal characters");
            requestHeaders[name] = value;
        }

        public string GetResponseHeader(string name) { return responseHeaders[name]; }

        public UnityWebRequestAsyncOperation SendWebRequest()
        {
            var operation = new UnityWebRequestAsyncOperation(this);
            var mainThread = SynchronizationContext.Current;
            result = Result.InProgress;
            ThreadPool.QueueUserWorkItem(_ =>
            {
                Exchange();
                if (mainThread != null) mainThread.Post(__ => operation.Finish(), null);
                else operation.Finish();
            });
            return operation;
        }

        private readonly object gate = new object();
        private bool aborted;
        private HttpWebRequest sending;

        /// <summary>
        /// As Unity's (ScriptReference UnityWebRequest.Abort): halts the request as soon as possible, which then completes
        /// as a ConnectionError whose error is "Request aborted"; called before SendWebRequest, the request aborts right
        /// after it; no effect once it has finished. Unity's returns at once: mono's HttpWebRequest.Abort is run on a pool
        /// thread, as it can block its caller while the request's own thread is inside GetRequestStream or GetResponse
        /// (a full-AOT probe's main thread hung there once under a loaded machine).
        /// </summary>
        public void Abort()
        {
            HttpWebRequest open;
            lock (gate)
            {
                aborted = true;
                open = sending;
            }
            if (open != null) ThreadPool.QueueUserWorkItem(_ => open.Abort());
        }

        private void Exchange()
        {
            try
            {
                var request = (HttpWebRequest)WebRequest.Create(url);
                lock (gate)
                {
                    if (aborted) throw new WebException("Request aborted", WebExceptionStatus.RequestCanceled);
                    sending = request;
                }
                request.Method = method;
                if (timeout > 0) request.Timeout = timeout * 1000;
                foreach (var header in requestHeaders)
                {
                    if (string.Equals(header.Key, "Content-Type", StringComparison.OrdinalIgnoreCase)) request.ContentType = header.Value;
                    else if (string.Equals(header.Key, "Accept", StringComparison.OrdinalIgnoreCase)) request.Accept = header.Value;
                    else request.Headers[header.Key] = header.Value;
                }
                if (uploadHandler != null && uploadHandler.payload != null)
                {
                    if (request.ContentType == null) request.ContentType = uploadHandler.contentType ?? "application/octet-stream";
                    request.ContentLength = uploadHandler.payload.Length;
                    using (var body = request.GetRequestStream()) body.Write(uploadHandler.payload, 0, uploadHandler.payload.Length);
                }
                HttpWebResponse response;
                try { response = (HttpWebResponse)request.GetResponse(); }
                catch (WebException failure)
                {
                    response = failure.Response as HttpWebResponse;
                    if (response == null) throw;
                }
                using (response)
                {
                    responseCode = (long)response.StatusCode;
                    responseHeaders = response.Headers;
                    var received = new MemoryStream();
                    using (var stream = response.GetResponseStream()) stream.CopyTo(received);
                    if (downloadHandler != null) downloadHandler.received = received.ToArray();
                }
                result = responseCode >= 400 ? Result.ProtocolError : Result.Success;
                if (result == Result.ProtocolError) error = "HTTP/1.1 " + responseCode;
            }
            catch (Exception failure)
            {
                result = Result.ConnectionError;
                lock (gate) error = aborted ? "Request aborted" : failure.Message;
            }
            lock (gate) sending = null;
        }

        public void Dispose() { }
    }
}
