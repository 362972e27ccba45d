// An Android player whose persistentDataPath changed between two runs: Unity gives the app's external files folder, and the
// internal one when that cannot be resolved (Scripting API, Application.persistentDataPath), so one run stored under the
// other path. A program of its own (ManagedLifecycleProbe is near mono full AOT's trampoline limit). Prints one JSON report
// that test/adapters/unity/managed-lifecycle.test.ts checks. args: the first run's data path, the second run's.
using System;
using System.Collections.Generic;
using System.IO;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedDataPathProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        string first = args[0], second = args[1];
        ProbeDevice.Open(first);
        // The first run, offline, on the first path: one session queued, one running when the app is killed, and another
        // player of the device who opted out.
        Application.Reachability = NetworkReachability.NotReachable;
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("quiet")), "init quiet");
        Loop.Run(() => Tracker.SetOptOut(true), "opt out");
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("mover")), "init mover");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(4000);
        Loop.Run(Tracker.Stop, "stop");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(12000);
        var left = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "mover");
        var quietLeft = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "quiet");
        Report["firstRunStored"] = (double)(TrackerFiles.JsonFiles(left.QueueDir).Count + TrackerFiles.JsonFiles(left.RunningDir).Count);
        // Killed; the next run gets the other path, online.
        UnityProcess.Start(Loop);
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", second);
        TrackerFiles.OtherDataPaths = dataPath => dataPath == second ? new[] { first } : new string[0];
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        var ended = new List<object>();
        Tracker.SessionEnded += e => ended.Add(e.Reason + " " + e.Session.DurationSeconds);
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("mover")), "init mover again");
        Loop.Run(Tracker.Flush, "flush");
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("quiet")), "init quiet again");
        Loop.Run(() => Tracker.Start(), "start quiet");
        ProbeDevice.Pass(3000);
        Loop.Run(Tracker.Stop, "stop quiet");
        Loop.Run(Tracker.Flush, "flush quiet");
        Report["secondRunEnded"] = ended;
        Report["received"] = Json.Write(ProbeDevice.Relay.Received, session => (object)(session.Player + " " + session.DurationSeconds));
        Report["leftOnFirstPath"] = (double)(TrackerFiles.JsonFiles(left.QueueDir).Count + TrackerFiles.JsonFiles(left.RunningDir).Count + (File.Exists(quietLeft.OptOutPath) ? 1 : 0));
        // Which data path is which on Android (Unity's two folders for one user and package); none elsewhere.
        Report["androidPaths"] = new List<object>
        {
            string.Join(" ", TrackerFiles.AndroidDataPaths("/storage/emulated/0/Android/data/com.example.game/files")),
            string.Join(" ", TrackerFiles.AndroidDataPaths("/data/data/com.example.game/files/")),
            string.Join(" ", TrackerFiles.AndroidDataPaths("/storage/emulated/10/Android/data/com.example.game/files")),
            string.Join(" ", TrackerFiles.AndroidDataPaths("/data/user/10/com.example.game/files")),
            string.Join(" ", TrackerFiles.AndroidDataPaths("C:/Users/p/AppData/LocalLow/Co/Game")),
            // An SD card's and adoptable storage's folders have no counterpart; user 0 by number; never a path out of the package.
            string.Join(" ", TrackerFiles.AndroidDataPaths("/storage/1A2B-3C4D/Android/data/com.example.game/files")),
            string.Join(" ", TrackerFiles.AndroidDataPaths("/mnt/expand/0b6c2e4a-1111-2222-3333-444455556666/user/0/com.example.game/files")),
            string.Join(" ", TrackerFiles.AndroidDataPaths("/data/user/0/com.example.game/files")),
            string.Join(" ", TrackerFiles.AndroidDataPaths("/storage/emulated/0/Android/data/../files")),
            string.Join(" ", TrackerFiles.AndroidDataPaths("/data/user/10/./files")),
        };
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }
}
