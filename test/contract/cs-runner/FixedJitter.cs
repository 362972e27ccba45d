// A scenario's "jitter" (FORMAT.md, "Timers"): the managed flusher's backoff draw fixed at one fraction of its ceiling, as
// the TypeScript runner fixes Math.random, so what a retry achieves in a span is decided by the two trackers' backoff
// rules alone, never by two random sources. The flusher's Random is private: it is swapped by reflection on this
// runner's side (the package keeps no test seam for it), as soon as Init has created the tracker, before its start-up
// flush could back off (ScenarioRunner.Init).
using System;
using System.Reflection;
using GameCampaignSdk;

internal static class FixedJitter
{
    private sealed class Draw : Random
    {
        private readonly double fraction;
        internal Draw(double fraction) { this.fraction = fraction; }
        public override double NextDouble() { return fraction; }
        protected override double Sample() { return fraction; }
    }

    private const BindingFlags Private = BindingFlags.Instance | BindingFlags.NonPublic;

    /// <summary>Whether the process's tracker exists (Init creates it in a main-thread turn of its own, then starts up).</summary>
    internal static bool CanApply() { return RunningTracker() != null; }

    private static ManagedTracker RunningTracker()
    {
        var native = Bridge.Native as ManagedNative;
        return native == null || native.Sdk == null ? null : native.Sdk.Tracker;
    }

    /// <summary>Fixes the running tracker's backoff draw at <paramref name="fraction"/>; throws when the fields it needs are gone.</summary>
    internal static void Apply(double fraction)
    {
        var tracker = RunningTracker();
        if (tracker == null) return; // no tracker: nothing backs off
        var flusher = Field(typeof(ManagedTracker), "flusher").GetValue(tracker);
        Field(typeof(ManagedFlusher), "jitter").SetValue(flusher, new Draw(fraction));
    }

    private static FieldInfo Field(Type type, string name)
    {
        var field = type.GetField(name, Private);
        if (field == null || !typeof(object).IsAssignableFrom(field.FieldType)) throw new InvalidOperationException(type.Name + "." + name + " is gone: FixedJitter needs it (FORMAT.md, \"jitter\")");
        return field;
    }
}
