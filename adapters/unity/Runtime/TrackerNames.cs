using System;

namespace GameCampaignSdk
{
    /// <summary>
    /// Why a session will never be sent (<see cref="DroppedEvent.DropReason"/>; <see cref="DroppedEvent.Reason"/> holds the JavaScript
    /// name). JavaScript names: TooShort <c>too-short</c>, Invalid
    /// <c>invalid</c>, Rejected <c>rejected</c>, Overflow <c>overflow</c>, TooLarge <c>too-large</c>, Expired
    /// <c>expired</c>, OptedOut <c>opted-out</c>, Erased <c>erased</c>.
    /// </summary>
    public enum DropReason
    {
        /// <summary>A name this version does not know (a newer JavaScript SDK in a WebGL build).</summary>
        Unknown,
        /// <summary>Under 1 s of play.</summary>
        TooShort,
        /// <summary>It breaks the spec's rules (found locally, or isolated in a batch the relay refused).</summary>
        Invalid,
        /// <summary>The service answered FAILED for it.</summary>
        Rejected,
        /// <summary>The queue was full (<see cref="GameCampaignOptions.MaxQueue"/>) and it was the oldest.</summary>
        Overflow,
        /// <summary>Alone it is larger than the relay accepts (413).</summary>
        TooLarge,
        /// <summary>Another player's session waited on this device longer than the relay's maximum session age (30 days).</summary>
        Expired,
        /// <summary>It ended while the player had recording switched off (<see cref="Tracker.SetOptOut"/>).</summary>
        OptedOut,
        /// <summary>The player erased their stored data (<see cref="Tracker.DeleteStoredData"/>).</summary>
        Erased,
    }

    /// <summary>
    /// What a <see cref="Tracker.Error"/> is about (<see cref="TrackerError.ErrorKind"/>; <see cref="TrackerError.Kind"/> holds the JavaScript
    /// name): Auth <c>auth</c> (the relay refused the credentials), Headers
    /// <c>headers</c>, Storage <c>storage</c> (a file could not be written, or a damaged one was set aside), Crypto
    /// <c>crypto</c>, Relay <c>relay</c> (an answer that is not the weather), Lock <c>lock</c>, Listener
    /// <c>listener</c>. No session is lost by any of them.
    /// </summary>
    public enum TrackerErrorKind
    {
        /// <summary>A name this version does not know.</summary>
        Unknown,
        Auth,
        Headers,
        Storage,
        Crypto,
        Relay,
        Lock,
        Listener,
    }

    /// <summary>The JavaScript names of <see cref="DropReason"/> and <see cref="TrackerErrorKind"/>, both ways.</summary>
    public static class TrackerNames
    {
        private static readonly string[] DropNames = { null, "too-short", "invalid", "rejected", "overflow", "too-large", "expired", "opted-out", "erased" };
        private static readonly string[] KindNames = { null, "auth", "headers", "storage", "crypto", "relay", "lock", "listener" };

        /// <summary>The reason of a <see cref="Tracker.Dropped"/> event.</summary>
        public static DropReason ReasonOf(DroppedEvent dropped) { return dropped == null ? DropReason.Unknown : ParseDropReason(dropped.Reason); }

        /// <summary>The kind of a <see cref="Tracker.Error"/> event.</summary>
        public static TrackerErrorKind KindOf(TrackerError error) { return error == null ? TrackerErrorKind.Unknown : ParseErrorKind(error.Kind); }

        /// <summary><c>too-short</c> to <see cref="DropReason.TooShort"/>; Unknown for any other text.</summary>
        public static DropReason ParseDropReason(string name) { return (DropReason)Math.Max(0, Array.IndexOf(DropNames, name)); }

        /// <summary><c>storage</c> to <see cref="TrackerErrorKind.Storage"/>; Unknown for any other text.</summary>
        public static TrackerErrorKind ParseErrorKind(string name) { return (TrackerErrorKind)Math.Max(0, Array.IndexOf(KindNames, name)); }

        /// <summary><see cref="DropReason.TooShort"/> to <c>too-short</c>; null for Unknown.</summary>
        public static string JavaScriptName(DropReason reason) { return (int)reason >= 0 && (int)reason < DropNames.Length ? DropNames[(int)reason] : null; }

        /// <summary><see cref="TrackerErrorKind.Storage"/> to <c>storage</c>; null for Unknown.</summary>
        public static string JavaScriptName(TrackerErrorKind kind) { return (int)kind >= 0 && (int)kind < KindNames.Length ? KindNames[(int)kind] : null; }
    }

    /// <summary>The typed reason of a generated <see cref="DroppedEvent"/> (its <see cref="Reason"/> keeps the JavaScript name).</summary>
    public sealed partial class DroppedEvent
    {
        /// <summary><see cref="Reason"/> as a <see cref="GameCampaignSdk.DropReason"/>: <c>dropped.DropReason == DropReason.TooShort</c>; Unknown for a name this version does not know.</summary>
        public DropReason DropReason { get { return TrackerNames.ParseDropReason(Reason); } }
    }

    /// <summary>The typed kind of a generated <see cref="TrackerError"/> (its <see cref="Kind"/> keeps the JavaScript name).</summary>
    public sealed partial class TrackerError
    {
        /// <summary><see cref="Kind"/> as a <see cref="TrackerErrorKind"/>: <c>error.ErrorKind == TrackerErrorKind.Storage</c>; Unknown for a name this version does not know.</summary>
        public TrackerErrorKind ErrorKind { get { return TrackerNames.ParseErrorKind(Kind); } }
    }
}
