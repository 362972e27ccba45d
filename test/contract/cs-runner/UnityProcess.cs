// What a new process of the game starts with (or Play mode entered again without a domain reload): the statics the
// package resets at [RuntimeInitializeOnLoadMethod(SubsystemRegistration)] reset, no SDK, nothing the last
// process posted to the main thread still to run, and none of its tracker runs' alive locks held (the OS releases a
// killed process's locks).
using GameCampaignSdk;

internal static class UnityProcess
{
    internal static void Start(MainLoop loop)
    {
        loop.Abandon();
        ManagedTimers.ResetStatics();
        ManagedLifecycle.ResetStatics();
        ManagedNative.ResetStatics();
        AliveLock.ResetStatics();
        Tracker.ResetStatics();
        Bridge.Native = new ManagedNative();
    }
}
