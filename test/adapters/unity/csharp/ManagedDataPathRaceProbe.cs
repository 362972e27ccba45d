// An Android player's other persistentDataPath (Unity's external files folder, or the internal one when that cannot be
// resolved: Scripting API, Application.persistentDataPath) taken in at start-up (TrackerFiles.AdoptionOf, AdoptOne, EndAdoption), hostile cases. A
// program of its own (ManagedLifecycleProbe is near mono full AOT's trampoline limit). args: story, first path, second path.
// Prints one JSON report that test/adapters/unity/managed-lifecycle.test.ts checks.
// - "alive": the first path's run is still playing (another process of the app: its alive lock held) when a run on the
//   second path starts: its running record must stay with it (not recovered here while it goes on), until it is gone.
// - "cut": a move cut short across mounts (File.Move copies then unlinks on EXDEV) left a partial copy under the session's
//   name in the second path, the whole original in the first.
// - "erase": the first path was out of reach at start-up (shared storage not mounted), reachable when the player erased.
// - "stuck": the first path's files cannot be deleted while the second run starts (a folder read-only for a moment): the
//   session copied in and sent must not be taken and sent again by the next start-up once they can. The first path also
//   holds a write's temporary file a kill left two minutes ago.
// - "stuck-unmounted": as "stuck", but the first path is out of reach (unmounted) at the third run's start-up, and back for
//   a fourth run's: the mark of the original taken must outlive the folder's absence.
using System;
using System.Collections.Generic;
using System.IO;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedDataPathRaceProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();
    private static readonly List<object> Events = new List<object>();

    private static int Main(string[] args)
    {
        string story = args[0], first = args[1], second = args[2];
        ProbeDevice.Open(first);
        var left = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "mover");
        var here = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "mover").Under(second);
        // The first run, offline, on the first path: a 4 s session queued, then one running (checkpointed at 1 s).
        Application.Reachability = NetworkReachability.NotReachable;
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("mover")), "init");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(4000);
        Loop.Run(Tracker.Stop, "stop");
        if (story == "alive")
        {
            Loop.Run(() => Tracker.Start(), "start");
            ProbeDevice.Pass(12000);
        }
        // The next run, on the second path, online.
        UnityProcess.Start(Loop);
        var held = new List<FileStream>();
        if (story == "alive")
        {
            // The first run goes on in another process: its lock held as AliveLock holds it (FileShare.None, byte 0 locked).
            foreach (var path in Directory.GetFiles(left.AliveDir, "*.lock"))
            {
                var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
                stream.Lock(0, 1);
                held.Add(stream);
            }
        }
        if (story == "cut")
        {
            // The copy File.Move made under the second path's queue, cut short by a kill before the original was unlinked.
            var name = TrackerFiles.JsonFiles(left.QueueDir)[0];
            var whole = File.ReadAllBytes(Path.Combine(left.QueueDir, name));
            Directory.CreateDirectory(here.QueueDir);
            var part = new byte[whole.Length / 2];
            Array.Copy(whole, part, part.Length);
            File.WriteAllBytes(Path.Combine(here.QueueDir, name), part);
        }
        if (story.StartsWith("stuck", StringComparison.Ordinal))
        {
            var stale = Path.Combine(left.QueueDir, "000000000009-x.json.abcdefgh.tmp");
            File.WriteAllText(stale, "{\"sess");
            File.SetLastWriteTimeUtc(stale, DateTime.UtcNow.AddMinutes(-2));
            TrackerFiles.DeleteFile = path =>
            {
                if (path.StartsWith(first, StringComparison.Ordinal)) throw new UnauthorizedAccessException("Access to the path is denied: " + path);
                if (File.Exists(path)) File.Delete(path);
            };
        }
        var unmounted = first + ".unmounted";
        if (story == "erase") Directory.Move(first, unmounted);
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", second);
        TrackerFiles.OtherDataPaths = dataPath => dataPath == second ? new[] { first } : new string[0];
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        Listen();
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("mover")), "init again");
        Loop.Run(Tracker.Flush, "flush");
        if (story == "erase")
        {
            Directory.Move(unmounted, first); // mounted again
            Loop.Run(Tracker.DeleteStoredData, "erase");
        }
        Report["secondRun"] = new List<object>(Events);
        Report["secondRunReceived"] = Received();
        Report["leftOnFirstPath"] = Stored(left);
        // The first path's run ends (killed), or the erasing run ends; a third run on the second path.
        foreach (var stream in held) stream.Dispose();
        TrackerFiles.DeleteFile = path => { if (File.Exists(path)) File.Delete(path); };
        UnityProcess.Start(Loop);
        Events.Clear();
        Listen();
        if (story == "stuck-unmounted") Directory.Move(first, unmounted);
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("mover")), "init third");
        Loop.Run(Tracker.Flush, "flush third");
        if (story == "stuck-unmounted")
        {
            Directory.Move(unmounted, first); // mounted again; a fourth run
            UnityProcess.Start(Loop);
            Listen();
            Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("mover")), "init fourth");
            Loop.Run(Tracker.Flush, "flush fourth");
        }
        Report["thirdRun"] = new List<object>(Events);
        Report["received"] = Received();
        Report["stored"] = Stored(left) + Stored(here);
        if (story.StartsWith("stuck", StringComparison.Ordinal)) Report["requests"] = ProbeDevice.Relay.Sends; // the relay answers SKIPPED for one it has
        // Every file left under the first path's player folder (its runs are all gone now).
        var files = new List<object>();
        foreach (var path in Directory.GetFiles(left.Root, "*", SearchOption.AllDirectories)) files.Add(path.Substring(left.Root.Length + 1).Replace('\\', '/'));
        Report["filesOnFirstPath"] = files;
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    private static void Listen()
    {
        Tracker.SessionEnded += e => Events.Add("ended " + e.Reason + " " + e.Session.DurationSeconds);
        Tracker.Dropped += e => Events.Add("dropped " + e.Reason);
        Tracker.Error += e => Events.Add("error " + e.Kind);
    }

    private static object Received()
    {
        return Json.Write(ProbeDevice.Relay.Received, session => (object)(session.Player + " " + session.DurationSeconds));
    }

    private static double Stored(PlayerFolder folder)
    {
        return TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count;
    }
}
