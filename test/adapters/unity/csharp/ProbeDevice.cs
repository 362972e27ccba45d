// The device the managed-tracker probes play on (ManagedLifecycleProbe, ManagedParityProbe): Unity's main thread
// (test/contract/cs-runner's MainLoop), a fake relay, both clocks at the probe's command from 2026-06-01T12:00Z,
// and persistentDataPath in the folder the test passes.
using System;
using System.Threading;
using GameCampaignSdk;

internal static class ProbeDevice
{
    internal static readonly MainLoop Loop = new MainLoop();
    internal static readonly FakeRelay Relay = new FakeRelay();
    /// <summary>Time that passed, ms: the monotonic clock, and the wall clock from its origin.</summary>
    internal static double MonotonicMs;

    internal static void Open(string folder)
    {
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", folder);
        SynchronizationContext.SetSynchronizationContext(Loop);
        var origin = new DateTime(2026, 6, 1, 12, 0, 0, DateTimeKind.Utc);
        DeviceClock.UtcNow = () => origin.AddMilliseconds(MonotonicMs);
        MonotonicClock.NowMs = () => MonotonicMs;
        HttpExchange.Transport = Relay.Exchange;
    }

    /// <summary>Init options of <paramref name="player"/> for the game g1 in the sandbox, test mode, with the player's relay header.</summary>
    internal static GameCampaignOptions Options(string player)
    {
        var options = new GameCampaignOptions { ClientKey = "ck_g1_sandbox:secret", UserId = player, RelayUrl = "https://g1.example/sandbox/campaign", IsTest = true };
        options.RelayHeaders["authorization"] = "Bearer " + player;
        return options;
    }

    /// <summary>
    /// <paramref name="ms"/> pass while the game runs: a frame at each timer due within them (frames keep coming), then
    /// one at the end; each frame's timers and the work they set off settle.
    /// </summary>
    internal static void Pass(double ms)
    {
        var target = MonotonicMs + ms;
        for (var frames = 0; ManagedTimers.NextDueMs() <= target; frames++)
        {
            if (frames > 1000000) throw new InvalidOperationException("timers kept firing: more than 1,000,000 frames");
            MonotonicMs = Math.Max(MonotonicMs, ManagedTimers.NextDueMs());
            Frame();
        }
        MonotonicMs = target;
        Frame();
    }

    /// <summary><paramref name="ms"/> pass without a frame (a laptop asleep, the Editor paused, a debugger), then one frame runs.</summary>
    internal static void Stall(double ms)
    {
        MonotonicMs += ms;
        Frame();
    }

    /// <summary>
    /// Slows the file operation <paramref name="operation"/> (TrackerFiles.Observer's names: "read", "delete", ...) under
    /// <paramref name="dir"/> to 20 ms, a slow phone's flash; the event is set at the first such operation.
    /// </summary>
    internal static ManualResetEventSlim SlowDisk(string operation, string dir)
    {
        var reached = new ManualResetEventSlim();
        TrackerFiles.Observer = (done, path) =>
        {
            if (done != operation || !path.StartsWith(dir, StringComparison.Ordinal)) return;
            reached.Set();
            Thread.Sleep(20);
        };
        return reached;
    }

    private static void Frame()
    {
        ManagedLifecycle.Instance.Update();
        Loop.Settle();
    }
}
