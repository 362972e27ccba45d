// What a new process of the game starts with (or Play mode entered again without a domain reload): the statics the
// package resets at [RuntimeInitializeOnLoadMethod(SubsystemRegistration)] reset, no SDK, and nothing the last
// process posted to the main thread still to run.
using GameCampaignSdk;

internal static class UnityProcess
{
    internal static void Start(MainLoop loop)
    {
        loop.Abandon();
        ManagedTimers.ResetStatics();
        ManagedLifecycle.ResetStatics();
        ManagedNative.ResetStatics();
        Tracker.ResetStatics();
        Bridge.Native = new ManagedNative();
    }
}
