using System;
using System.Collections.Generic;

namespace GameCampaignSdk
{
    /// <summary>
    /// Every failure of the SDK in C#: the TypeScript error's class name, <see cref="Code"/> (the spec's code,
    /// e.g. <c>NOT_FOUND</c>, or the bridge's own <c>WEBGL_ONLY</c>, <c>NOT_LOADED</c>, <c>NOT_INITIALIZED</c>),
    /// the HTTP <see cref="Status"/> when a response arrived, and <see cref="DaysRemaining"/> for a boost change
    /// inside the 30-day cooldown.
    /// </summary>
    public class GameCampaignException : Exception
    {
        /// <summary>The code of what runs in a WebGL player only (the creator picker, outside WebGL).</summary>
        public const string WebGlOnlyCode = "WEBGL_ONLY";

        /// <summary>The TypeScript error class, e.g. <c>BoostCooldownError</c>, <c>NotFoundError</c>.</summary>
        public string ErrorName { get; private set; }
        /// <summary>Machine-readable code, e.g. <c>BAD_REQUEST</c>, <c>CONNECTION_ERROR</c>, <c>WEBGL_ONLY</c>.</summary>
        public string Code { get; private set; }
        /// <summary>HTTP status; null when no response arrived.</summary>
        public int? Status { get; private set; }
        /// <summary>Days until the boost may change (a <c>BoostCooldownError</c>); null otherwise.</summary>
        public int? DaysRemaining { get; private set; }
        /// <summary>How long the service asked to wait, in ms (a <c>RateLimitError</c>); null otherwise.</summary>
        public double? RetryAfterMs { get; private set; }
        /// <summary>Field problems of a validation error (empty otherwise).</summary>
        public IList<ErrorDetail> Details { get; private set; }

        /// <summary>An error with a code and a message.</summary>
        public GameCampaignException(string code, string message) : this(new ErrorInfo { Name = "GameCampaignException", Code = code, Message = message }) { }

        /// <summary>An error with a code and a message, caused by <paramref name="cause"/> (<see cref="Exception.InnerException"/>).</summary>
        public GameCampaignException(string code, string message, Exception cause) : base(message, cause)
        {
            ErrorName = "GameCampaignException";
            Code = code;
            Details = new List<ErrorDetail>();
        }

        /// <summary>The C# form of an error the bridge delivered.</summary>
        public GameCampaignException(ErrorInfo info) : base(info == null || info.Message == null ? "unknown error" : info.Message)
        {
            info = info ?? new ErrorInfo { Name = "Error", Code = "UNKNOWN", Message = "unknown error" };
            ErrorName = info.Name;
            Code = info.Code;
            Status = info.Status.HasValue ? (int?)info.Status.Value : null;
            DaysRemaining = info.DaysRemaining.HasValue ? (int?)info.DaysRemaining.Value : null;
            RetryAfterMs = info.RetryAfterMs;
            Details = (IList<ErrorDetail>)info.Details ?? new List<ErrorDetail>();
        }

        /// <summary>True for a boost change refused by the 30-day cooldown.</summary>
        public bool IsBoostCooldown { get { return DaysRemaining.HasValue; } }

        /// <summary>The error of the creator picker outside a WebGL player.</summary>
        public static GameCampaignException WebGlOnly()
        {
            return new GameCampaignException(WebGlOnlyCode, "The creator picker runs in Unity WebGL builds only: in the Editor and other players use Creators.Search and Boost.Change.");
        }

        /// <summary>
        /// A <c>ValidationError</c> of the SDK's own checks, as the TypeScript SDK words one: <c>Invalid request: </c>
        /// and each detail's path and message, the details kept.
        /// </summary>
        internal static GameCampaignException Invalid(List<ErrorDetail> details)
        {
            var summary = new List<string>();
            foreach (var detail in details) summary.Add(detail.Path + " " + detail.Message);
            return new GameCampaignException(new ErrorInfo { Name = "ValidationError", Code = "VALIDATION_ERROR", Message = "Invalid request: " + string.Join("; ", summary.ToArray()), Details = details });
        }

        /// <summary>Code, status and message, e.g. <c>BAD_REQUEST (400): Boost can be changed again in 20 days</c>.</summary>
        public override string ToString()
        {
            return Code + (Status.HasValue ? " (" + Status.Value + ")" : "") + ": " + Message;
        }
    }
}
