// The managed tracker's file work under two copies of the game and a device clock moved (test/adapters/unity/
// managed-files.test.ts checks the JSON report this prints): two writers of the opt-out choice at once, the file
// worker's wait timed while the wall clock jumps (run with clockshift.c preloaded), and the queue's order after an
// erasure that merged a session another copy queued. Compiled with ProbeDevice.cs. args: device folder.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using GameCampaignSdk;
using static ProbeDevice;

internal static class ManagedFilesProbe
{
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        Open(args[0]);
        OptOutWrittenByTwo();
        WaitWhileTheClockMoves();
        OrderAfterErase();
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    /// <summary>
    /// Two copies of the game on one player's folder (the Editor beside a build) toggling the choice at once: 300 writes
    /// each, one writing true, the other false. Every write works, the file holds a choice, no temporary file is left.
    /// </summary>
    private static void OptOutWrittenByTwo()
    {
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "two-writers");
        var failures = 0;
        var firstFailure = "";
        var start = new ManualResetEvent(false);
        var writers = new List<Thread>();
        foreach (var choice in new[] { true, false })
        {
            var thread = new Thread(() =>
            {
                start.WaitOne();
                for (var i = 0; i < 300; i++)
                {
                    try { TrackerFiles.Write(folder.OptOutPath, choice); }
                    catch (Exception error)
                    {
                        if (Interlocked.Increment(ref failures) == 1) firstFailure = error.GetType().Name;
                    }
                }
            });
            thread.Start();
            writers.Add(thread);
        }
        start.Set();
        foreach (var thread in writers) thread.Join();
        Report["twoWritersFailures"] = failures;
        Report["twoWritersFirstFailure"] = firstFailure;
        Report["twoWritersChoice"] = RunningStore.PeekOptOut(folder).HasValue ? "a choice" : "none or damaged";
        var left = 0;
        foreach (var path in Directory.GetFiles(folder.Root)) if (path.EndsWith(".tmp", StringComparison.Ordinal)) left++;
        Report["twoWritersTemporaryLeft"] = left;
    }

    /// <summary>
    /// A pause waiting for its checkpoint while the player (or NTP) moves the clock: 2 h ahead, the wait still lasts until
    /// the write is done (the second of two jobs, 300 ms after the first); 2 h back, a 500 ms wait still ends at 500 ms (the
    /// jobs done 5 s later), not hours later.
    /// </summary>
    private static void WaitWhileTheClockMoves()
    {
        var before = DateTime.UtcNow;
        Report["aheadResult"] = WaitWith(7200, 60000, 300);
        Report["clockMovedS"] = Math.Round((DateTime.UtcNow - before).TotalSeconds / 3600);
        Report["backResult"] = WaitWith(-7200, 500, 5000);
        Environment.SetEnvironmentVariable("CLOCKSHIFT_SECONDS", null);
    }

    /// <summary>Two jobs held; 100 ms into the wait the clock moves by <paramref name="shiftS"/>, the first job ends, and the second <paramref name="secondAfterMs"/> later.</summary>
    private static bool WaitWith(int shiftS, int timeoutMs, int secondAfterMs)
    {
        Environment.SetEnvironmentVariable("CLOCKSHIFT_SECONDS", null);
        var first = new ManualResetEvent(false);
        var second = new ManualResetEvent(false);
        IoQueue.Run(() => { first.WaitOne(); });
        IoQueue.Run(() => { second.WaitOne(); });
        var mark = IoQueue.Mark;
        var mover = new Thread(() =>
        {
            Thread.Sleep(100);
            Environment.SetEnvironmentVariable("CLOCKSHIFT_SECONDS", shiftS.ToString());
            first.Set();
            Thread.Sleep(secondAfterMs);
            second.Set();
        });
        mover.Start();
        var result = IoQueue.WaitFor(mark, timeoutMs);
        mover.Join();
        IoQueue.WaitFor(mark, 60000);
        return result;
    }

    /// <summary>
    /// This run queued session a (sequence 5); another copy of the game then queued b under an older sequence (3). The
    /// player erases on a read-only disk (every delete refused): both stay queued, and the oldest, b, goes first.
    /// </summary>
    private static void OrderAfterErase()
    {
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "erase-order");
        Directory.CreateDirectory(folder.QueueDir);
        File.WriteAllText(Path.Combine(folder.QueueDir, "000000000005-a.json"), "{\"sessionId\":\"a\"}");
        var errors = new List<object>();
        var queue = new SessionQueue(folder, 100, (id, reason, session) => { }, error => errors.Add(error.GetType().Name), id => { }, path => { });
        Loop.Run(() => queue.Sync(0), "start-up");
        File.WriteAllText(Path.Combine(folder.QueueDir, "000000000003-b.json"), "{\"sessionId\":\"b\"}");
        var delete = TrackerFiles.DeleteFile;
        TrackerFiles.DeleteFile = path => { throw new UnauthorizedAccessException("read-only: " + path); };
        try { Loop.Run(() => queue.Erase(0), "erase"); }
        finally { TrackerFiles.DeleteFile = delete; }
        Report["eraseErrors"] = errors;
        Report["orderAfterErase"] = Json.Write(queue.Oldest(10, new HashSet<string>()), key => (object)key);
    }
}
