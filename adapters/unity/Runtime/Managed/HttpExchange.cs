// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using UnityEngine.Networking;

namespace GameCampaignSdk
{
    /// <summary>One HTTP answer: its status (0 when none arrived), its parsed JSON body, or why nothing arrived.</summary>
    internal sealed class HttpAnswer
    {
        public long Status;
        public object Body;
        public string NetworkError;
        public string RetryAfter;
        /// <summary>Recalled by its caller before an answer was heard (<see cref="HttpExchange.SendJson"/>'s <c>cancel</c>): nothing is known of it.</summary>
        public bool Aborted;

        public bool Reached { get { return NetworkError == null; } }
        public bool Ok { get { return Reached && Status >= 200 && Status < 300; } }
        /// <summary>The service's <c>{ data }</c>.</summary>
        public object Data { get { return Json.Field(Json.Obj(Body), "data"); } }
        /// <summary>Network errors, 408, 429 and 5xx: the weather; the request may be tried again later.</summary>
        public bool Transient { get { return !Reached || Status == 408 || Status == 429 || Status >= 500; } }
    }

    /// <summary>
    /// HTTP over <see cref="UnityWebRequest"/> for the C# implementation, and the typed errors the JavaScript SDK
    /// would throw for its answers (core/http/errors.ts <c>errorFromResponse</c>), as <see cref="GameCampaignException"/>.
    /// Awaiting a request resumes on the main thread: <c>completed</c> is raised there.
    /// </summary>
    internal static class HttpExchange
    {
        /// <summary>Seconds before a request without an answer fails (the JavaScript SDK's 30 s).</summary>
        private const int TimeoutSeconds = 30;

        private static readonly Dictionary<string, string> NameByCode = new Dictionary<string, string>
        {
            { "RATE_LIMITED", "RateLimitError" }, { "VALIDATION_ERROR", "ValidationError" }, { "BAD_REQUEST", "BadRequestError" },
            { "UNAUTHORIZED", "UnauthorizedError" }, { "FORBIDDEN", "ForbiddenError" }, { "NOT_FOUND", "NotFoundError" },
            { "CONFLICT", "ConflictError" }, { "INTERNAL_ERROR", "InternalError" }, { "USER_CODE_LIMIT", "UserCodeLimitError" },
        };

        private static readonly Dictionary<long, string> CodeByStatus = new Dictionary<long, string>
        {
            { 400, "BAD_REQUEST" }, { 401, "UNAUTHORIZED" }, { 403, "FORBIDDEN" }, { 404, "NOT_FOUND" }, { 409, "CONFLICT" }, { 422, "VALIDATION_ERROR" }, { 429, "RATE_LIMITED" },
        };

        /// <summary>
        /// The days in a cooldown message, as the JavaScript SDK reads them ("... in 12 days", "12 days remaining"): case
        /// folded without the device's culture (on a Turkish one "I" is not "i", so "In 3 days" was no cooldown), and ASCII
        /// digits only, as JavaScript's <c>\d</c> (.NET's also takes digits <c>long.Parse</c> then refuses).
        /// </summary>
        private static readonly Regex CooldownDays = new Regex(@"\bin ([0-9]+) days?\b|\b([0-9]+) days? remaining\b", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant);

        /// <summary>Tests only: answers requests in place of UnityWebRequest (method, url, headers, JSON body or null).</summary>
        internal static Func<string, string, Dictionary<string, string>, string, Task<HttpAnswer>> Transport = null;

        internal static Task<HttpAnswer> Send(string method, string url, Dictionary<string, string> headers, object body)
        {
            return SendJson(method, url, headers, body == null ? null : Json.Serialize(body));
        }

        /// <summary>
        /// A request with a serialized JSON body (null: none). The answer's body is parsed on a worker thread (a thousand
        /// results are too much for a frame); awaiting code resumes on the main thread.
        /// </summary>
        /// <param name="cancel">recalls the request (core/http/exchange.ts's <c>signal</c>): its answer is then <see cref="HttpAnswer.Aborted"/> at once, whatever arrives later.</param>
        internal static Task<HttpAnswer> SendJson(string method, string url, Dictionary<string, string> headers, string body, CancellationToken cancel = default(CancellationToken))
        {
            if (cancel.IsCancellationRequested) return Task.FromResult(AbortedAnswer());
            var sent = new Dictionary<string, string>();
            if (headers != null) foreach (var header in headers) sent[header.Key] = header.Value == null ? null : header.Value.Trim(HttpWhitespace);
            try { return Request(method, url, sent, body, cancel); }
            catch (Exception error)
            {
                // UnityWebRequest refuses a header it cannot send (a control character in a token, a name it reserves) by
                // throwing: a request that never left, as fetch's TypeError is for the JavaScript SDK (a connection error:
                // the flusher backs off and reports an unreachable relay once), not a failure at every flush.
                return Task.FromResult(new HttpAnswer { NetworkError = "the request could not be made: " + error.Message });
            }
        }

        /// <summary>
        /// What fetch strips from each end of a header value (the Fetch standard's "normalize": HTTP whitespace), so a token
        /// read with its line break is sent as the JavaScript SDK sends it; UnityWebRequest refuses control characters.
        /// </summary>
        private static readonly char[] HttpWhitespace = { ' ', '\t', '\n', '\r' };

        private static HttpAnswer AbortedAnswer()
        {
            return new HttpAnswer { NetworkError = "the request was aborted", Aborted = true };
        }

        private static Task<HttpAnswer> Request(string method, string url, Dictionary<string, string> headers, string body, CancellationToken cancel)
        {
            var transport = Transport;
            if (transport != null) return Recallable(transport(method, url, headers, body), cancel);
            var request = new UnityWebRequest(url, method, new DownloadHandlerBuffer(), body == null ? null : new UploadHandlerRaw(Encoding.UTF8.GetBytes(body)));
            try
            {
                request.timeout = TimeoutSeconds;
                foreach (var header in headers) request.SetRequestHeader(header.Key, header.Value);
                request.SetRequestHeader("Accept", "application/json");
                if (body != null) request.SetRequestHeader("Content-Type", "application/json");
            }
            catch (Exception)
            {
                request.Dispose(); // its native side, as after an answer
                throw;
            }
            var answered = new TaskCompletionSource<HttpAnswer>();
            // Recalled (on the main thread: the tracker's Dispose), the request is aborted (UnityWebRequest.Abort: "halts
            // the UnityWebRequest as soon as possible", no effect once it has finished) and its answer is Aborted at once,
            // as fetch's abort rejects at once; the request is still disposed when Unity completes it.
            var recall = cancel.Register(() =>
            {
                request.Abort();
                answered.TrySetResult(AbortedAnswer());
            });
            request.SendWebRequest().completed += _ =>
            {
                recall.Dispose(); // on the main thread, as the recall runs: the request is not aborted once disposed
                var answer = new HttpAnswer { Status = request.responseCode };
                string text = null;
                if (request.result == UnityWebRequest.Result.ConnectionError || request.result == UnityWebRequest.Result.DataProcessingError) answer.NetworkError = request.error ?? "no response";
                else
                {
                    answer.RetryAfter = request.GetResponseHeader("Retry-After");
                    text = request.downloadHandler.text;
                }
                request.Dispose();
                if (text == null)
                {
                    answered.TrySetResult(answer);
                    return;
                }
                ThreadPool.QueueUserWorkItem(__ =>
                {
                    try { answer.Body = Json.Parse(text); }
                    catch (Exception) { answer.Body = null; } // not JSON (a proxy's page): the status decides
                    try { answered.TrySetResult(answer); }
                    catch (Exception error) { UnityEngine.Debug.LogException(error); } // the main thread is gone (the player exiting)
                });
            };
            return answered.Task;
        }

        /// <summary>The transport's answer (a test's), or Aborted as soon as <paramref name="cancel"/> recalls it.</summary>
        private static Task<HttpAnswer> Recallable(Task<HttpAnswer> answer, CancellationToken cancel)
        {
            if (!cancel.CanBeCanceled || answer.IsCompleted) return answer;
            var answered = new TaskCompletionSource<HttpAnswer>();
            var recall = cancel.Register(() => answered.TrySetResult(AbortedAnswer()));
            Forward(answer, answered, recall);
            return answered.Task;
        }

        /// <summary>Awaited, not ContinueWith (the package's rule: docs/decisions.md, "Unity: where C# continuations run").</summary>
        private static async void Forward(Task<HttpAnswer> answer, TaskCompletionSource<HttpAnswer> answered, CancellationTokenRegistration recall)
        {
            try { answered.TrySetResult(await answer); }
            catch (Exception error) { answered.TrySetException(error); }
            finally { recall.Dispose(); }
        }

        /// <summary>
        /// A success's <c>data</c> in the shape the call returns, as core/http/transport.ts <c>success</c> takes it: an
        /// object for one item (<paramref name="list"/> false), a list for a list. A 204, a body that is not JSON or has no
        /// <c>data</c>, <c>{ data: null }</c>, a list where a campaign is read or an object where creators are: the
        /// JavaScript SDK's <c>ResponseValidationError</c>, its code and message (docs/decisions.md "A success with no
        /// <c>data</c>"), here at the read rather than a null result or a cast failing later in the game's code.
        /// </summary>
        /// <param name="name">the schema <c>data</c> holds, named in the message (core/schema/responses.ts ResponseName).</param>
        internal static object DataOf(HttpAnswer answer, string name, bool list = false)
        {
            var data = answer.Data;
            if (list ? data is List<object> : data is Dictionary<string, object>) return data;
            var message = "The " + answer.Status.ToString(CultureInfo.InvariantCulture) + " response has no " + name + " data";
            throw new GameCampaignException(new ErrorInfo { Name = "ResponseValidationError", Code = "INVALID_RESPONSE", Message = message, Status = answer.Status });
        }

        /// <summary>The typed error of a failed answer. <paramref name="cooldown"/>: a boost change; <paramref name="relay"/>: a 401/403 is the game's authentication.</summary>
        internal static GameCampaignException ErrorOf(HttpAnswer answer, bool cooldown = false, bool relay = false)
        {
            if (!answer.Reached) return new GameCampaignException(new ErrorInfo { Name = "ConnectionError", Code = "CONNECTION_ERROR", Message = "Connection failed: " + answer.NetworkError });
            // A body without a string code is not the service's (a proxy's, a framework's { message }): nothing of it is
            // taken, its message included, as core/http/errors.ts.
            var fields = Json.Obj(answer.Body);
            if (fields == null || Json.Str(fields, "code") == null) fields = new Dictionary<string, object>();
            string statusCode;
            if (!CodeByStatus.TryGetValue(answer.Status, out statusCode)) statusCode = answer.Status >= 500 ? "INTERNAL_ERROR" : "UNKNOWN";
            var code = Json.Str(fields, "code") ?? statusCode;
            var message = Json.Str(fields, "message") ?? "HTTP " + answer.Status;
            var kind = NameByCode.ContainsKey(code) ? code : statusCode;
            string name;
            if (!NameByCode.TryGetValue(kind, out name)) name = "CampaignError";
            var info = new ErrorInfo { Name = name, Code = code, Message = message, Status = answer.Status, Details = Json.Items(fields, "details", ErrorDetail.FromJson) };
            if (relay && (answer.Status == 401 || answer.Status == 403)) info.Name = "RelayAuthError";
            var days = kind == "BAD_REQUEST" && cooldown ? CooldownDays.Match(message) : Match.Empty;
            if (days.Success)
            {
                info.Name = "BoostCooldownError";
                info.DaysRemaining = long.Parse(days.Groups[1].Success ? days.Groups[1].Value : days.Groups[2].Value, CultureInfo.InvariantCulture);
            }
            if (kind == "RATE_LIMITED") info.RetryAfterMs = RetryAfter.Ms(answer.RetryAfter);
            return new GameCampaignException(info);
        }
    }
}
#endif
