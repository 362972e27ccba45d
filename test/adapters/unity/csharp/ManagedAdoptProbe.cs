// An Android player's other persistentDataPath taken in (TrackerFiles.AdoptionOf, AdoptOne, EndAdoption; AliveLock), hostile cases found by p34. A
// program of its own (ManagedLifecycleProbe is near mono full AOT's trampoline limit). args: story, first path, second
// path; test/adapters/unity/managed-adopt.test.ts checks what it prints.
// - "taken-original": the second path's run copies the first path's queued and running sessions in but cannot delete the
//   originals (a folder read-only for a moment: it marks its copies `.adopted`), sends them; then Unity gives the first
//   path again: that run must not send the originals a second time.
// - "clock-temp": writes' temporary files a kill left while the device clock was set two years ahead (written "in the
//   future"), in this path's folder and the other path's, found by a start-up once the clock is right again.
// - "serve": one process of the app, driven line by line from stdin (answers: one line starting with "@", JSON), so two
//   processes can race on the alive locks: take-paused <path> (AliveLock.Take of run "runB" under that data path on a
//   thread, paused just before it locks; answers once there) | go <path> (lets the paused thread go on; answers when it
//   returned, with the lock files under that path) |
//   adopt-paused <own path> <other path> [queue] (TrackerFiles.AdoptionOf on a thread, paused as it lists the other path's
//   running records, or with "queue" its queued ones, after its alive-lock check; answers once there) |
//   enqueue <path> (a run's SessionQueue there, started, one session queued) | flush-read (that queue's flush reads
//   what it holds: how many it read, the drops and errors heard, how many it still holds) | queued <path> (how many
//   queue files that path holds) | take <path> (AliveLock.Take of runB there) |
//   running <path> (how many running records that path holds) | delete-dead-paused <path> (AliveLock.DeleteDead there on a thread, paused just before it deletes a lock file; answers
//   once there) | dead-lock <path> (the lock file a killed run runB left) | claim <path> (AliveLock.OfGoneRuns there, as a
//   start-up: answers how many records are a gone run's, the locks it took kept) | release-paused (Release of the locks
//   claim took, on a thread, paused just before it deletes a lock file; answers once there) |
//   read <path> (a start-up's first step there: RunningStore.ReadAll, the records kept) | claim-read <path>
//   (AliveLock.OfGoneRuns there with the records read earlier: how many are a gone run's) | init <path> (GameCampaign.Init
//   for the player under that data path, then a flush: the sessions ended, what the relay received, how many running
//   records and lock files the path holds then) |
//   record <path> (a running record of runB under that path) | adopt <own path> <other path> (AdoptAll: the adoption's steps in one go;
//   answers how many running records the own path holds) | quit.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedAdoptProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();
    private static readonly List<object> Events = new List<object>();

    private static int Main(string[] args)
    {
        string story = args[0], first = args[1], second = args[2];
        ProbeDevice.Open(first);
        if (story == "serve") return Serve();
        var left = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "mover");
        var here = left.Under(second);
        if (story == "taken-original") TakenOriginal(first, second, left, here);
        if (story == "clock-temp") ClockTemp(first, second, left, here);
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    /// <summary>A whole adoption in one go, as the tracker's start-up makes it in slices (ManagedTracker.StartUp.cs, AdoptOthers).</summary>
    private static void AdoptAll(PlayerFolder own, PlayerFolder other)
    {
        foreach (var taken in TrackerFiles.TakenOf(own, other)) TrackerFiles.DeleteTakenOne(taken);
        var adoption = TrackerFiles.AdoptionOf(own, other);
        if (adoption == null) return;
        foreach (var file in adoption.Files) TrackerFiles.AdoptOne(adoption, file);
        TrackerFiles.EndAdoption(adoption);
        foreach (var mark in adoption.Forget) TrackerFiles.TryDelete(mark);
    }

    private static void TakenOriginal(string first, string second, PlayerFolder left, PlayerFolder here)
    {
        // The first run, offline, on the first path: a 4 s session queued, then one running (checkpointed at 1 s), killed.
        Application.Reachability = NetworkReachability.NotReachable;
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("mover")), "init");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(4000);
        Loop.Run(Tracker.Stop, "stop");
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(12000);
        // The second run, on the second path, online; the first path's files cannot be deleted.
        UnityProcess.Start(Loop);
        TrackerFiles.DeleteFile = path =>
        {
            if (path.StartsWith(first, StringComparison.Ordinal)) throw new UnauthorizedAccessException("Access to the path is denied: " + path);
            if (File.Exists(path)) File.Delete(path);
        };
        TrackerFiles.OtherDataPaths = dataPath => dataPath == second ? new[] { first } : dataPath == first ? new[] { second } : new string[0];
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
        RunOn(second, "second");
        Report["secondRun"] = new List<object>(Events);
        Report["secondRunReceived"] = Received();
        Report["originalsLeft"] = Stored(left);
        Report["marksOnSecondPath"] = Marks(here);
        // Unity gives the first path again (deletes allowed).
        TrackerFiles.DeleteFile = path => { if (File.Exists(path)) File.Delete(path); };
        var requests = ProbeDevice.Relay.Sends;
        Events.Clear();
        RunOn(first, "third");
        Report["thirdRun"] = new List<object>(Events);
        Report["thirdRunRequests"] = ProbeDevice.Relay.Sends - requests;
        Report["received"] = Received();
        Report["stored"] = Stored(left) + Stored(here);
        Report["marksLeft"] = Marks(here) + Marks(left);
    }

    private static void ClockTemp(string first, string second, PlayerFolder left, PlayerFolder here)
    {
        // Files a kill left mid-write while the clock read two years ahead (their last-write time in the future now), and
        // one another copy of the game is writing this very moment (now).
        var future = DateTime.UtcNow.AddYears(2);
        var stale = new[] { Path.Combine(here.QueueDir, "000000000001-a.json.abcdefgh.tmp"), Path.Combine(here.Root, "opt-out.json.abcdefgh.tmp"), Path.Combine(left.RunningDir, "b.json.abcdefgh.tmp") };
        foreach (var path in stale)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path));
            File.WriteAllText(path, "{\"sess");
            File.SetLastWriteTimeUtc(path, future);
        }
        var writing = Path.Combine(here.QueueDir, "000000000002-c.json.ijklmnop.tmp");
        File.WriteAllText(writing, "{\"sess");
        UnityProcess.Start(Loop);
        TrackerFiles.OtherDataPaths = dataPath => dataPath == second ? new[] { first } : new string[0];
        RunOn(second, "second");
        var left2 = new List<object>();
        foreach (var path in stale) if (File.Exists(path)) left2.Add(Path.GetFileName(path));
        Report["futureLeft"] = left2;
        Report["writingKept"] = File.Exists(writing);
    }

    private static void RunOn(string dataPath, string run)
    {
        UnityProcess.Start(Loop);
        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", dataPath);
        Tracker.SessionEnded += e => Events.Add("ended " + e.Reason + " " + e.Session.DurationSeconds);
        Tracker.Dropped += e => Events.Add("dropped " + e.Reason);
        Tracker.Error += e => Events.Add("error " + e.Kind);
        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("mover")), "init " + run);
        Loop.Run(Tracker.Flush, "flush " + run);
    }

    private static object Received()
    {
        return Json.Write(ProbeDevice.Relay.Received, session => (object)(session.Player + " " + session.DurationSeconds));
    }

    private static double Stored(PlayerFolder folder)
    {
        return TrackerFiles.JsonFiles(folder.QueueDir).Count + TrackerFiles.JsonFiles(folder.RunningDir).Count;
    }

    private static double Marks(PlayerFolder folder)
    {
        var count = 0;
        foreach (var dir in new[] { folder.QueueDir, folder.RunningDir })
            if (Directory.Exists(dir)) count += Directory.GetFiles(dir, "*.adopted").Length;
        return count;
    }

    private static int Serve()
    {
        var player = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "mover");
        var paused = new ManualResetEvent(false);
        var go = new ManualResetEvent(false);
        Thread taking = null;
        AliveLock taken = null;
        var claimed = new List<AliveLock>();
        List<RunningRecord> read = null;
        SessionQueue runQueue = null;
        var heard = new List<object>();
        string line;
        while ((line = Console.ReadLine()) != null)
        {
            var words = line.Split(' ');
            var answer = new Dictionary<string, object>();
            try
            {
                switch (words[0])
                {
                    case "take-paused":
                        var folder = player.Under(words[1]);
                        AliveLock.LockRegion = stream =>
                        {
                            paused.Set();
                            go.WaitOne();
                            stream.Lock(0, 1);
                        };
                        taking = new Thread(() => taken = AliveLock.Take(folder, "runB"));
                        taking.Start();
                        paused.WaitOne();
                        answer["lockFiles"] = LockFiles(folder);
                        break;
                    case "go":
                        go.Set();
                        taking.Join();
                        answer["took"] = taken != null;
                        answer["lockFiles"] = LockFiles(player.Under(words[1]));
                        break;
                    case "delete-dead-paused":
                        var dead = player.Under(words[1]);
                        AliveLock.DeleteFile = path =>
                        {
                            paused.Set();
                            go.WaitOne();
                            File.Delete(path);
                        };
                        taking = new Thread(() => AliveLock.DeleteDead(dead));
                        taking.Start();
                        paused.WaitOne();
                        break;
                    case "release-paused":
                        AliveLock.DeleteFile = path =>
                        {
                            paused.Set();
                            go.WaitOne();
                            File.Delete(path);
                        };
                        var releasing = claimed.ToArray();
                        claimed.Clear();
                        taking = new Thread(() => { foreach (var lockHeld in releasing) lockHeld.Release(); });
                        taking.Start();
                        paused.WaitOne();
                        break;
                    case "adopt-paused":
                        var into = player.Under(words[1]);
                        var from = player.Under(words[2]);
                        var pauseAt = words.Length > 3 && words[3] == "queue" ? from.QueueDir : from.RunningDir;
                        TrackerFiles.Observer = (operation, path) =>
                        {
                            if (operation != "list" || path != pauseAt) return;
                            paused.Set();
                            go.WaitOne();
                        };
                        taking = new Thread(() => AdoptAll(into, from));
                        taking.Start();
                        paused.WaitOne();
                        break;
                    case "enqueue":
                        runQueue = new SessionQueue(player.Under(words[1]), 100, (id, reason, session) => heard.Add("dropped " + id + " " + reason), error => heard.Add("storage error"), id => { }, path => heard.Add("set aside"));
                        Loop.Run(() => runQueue.Sync(0), "the run's start-up");
                        Loop.Run(() => runQueue.Enqueue(Bridge.Args("sessionId", "0b0e6f52-0000-4000-8000-000000000002", "userId", "mover", "startedAtMs", 1780315200000.0, "endedAtMs", 1780315204000.0, "playedMs", 4000.0), 0), "a session queued");
                        break;
                    case "flush-read":
                        var reading = runQueue.Read(runQueue.Oldest(100, new HashSet<string>()), path => heard.Add("set aside"));
                        Loop.Run(() => reading, "the run's flush reads its queue");
                        answer["read"] = reading.Result.Count;
                        answer["heard"] = heard;
                        answer["queuedInMemory"] = runQueue.Oldest(100, new HashSet<string>()).Count;
                        break;
                    case "queued":
                        answer["queued"] = TrackerFiles.JsonFiles(player.Under(words[1]).QueueDir).Count;
                        break;
                    case "take":
                        taken = AliveLock.Take(player.Under(words[1]), "runB");
                        answer["took"] = taken != null;
                        break;
                    case "running":
                        answer["running"] = TrackerFiles.JsonFiles(player.Under(words[1]).RunningDir).Count;
                        break;
                    case "dead-lock":
                        var alive = player.Under(words[1]).AliveDir;
                        Directory.CreateDirectory(alive);
                        File.WriteAllBytes(Path.Combine(alive, "runB.lock"), new byte[0]);
                        break;
                    case "claim":
                        var start = player.Under(words[1]);
                        answer["gone"] = AliveLock.OfGoneRuns(start, "own", RunningStore.ReadAll(start, new List<string>()), claimed).Count;
                        break;
                    case "read":
                        read = RunningStore.ReadAll(player.Under(words[1]), new List<string>());
                        answer["read"] = read.Count;
                        break;
                    case "claim-read":
                        answer["gone"] = AliveLock.OfGoneRuns(player.Under(words[1]), "own", read, claimed).Count;
                        break;
                    case "init":
                        UnityProcess.Start(Loop);
                        Environment.SetEnvironmentVariable("GAME_CAMPAIGN_PERSISTENT_DATA_PATH", words[1]);
                        Tracker.SessionEnded += e => Events.Add("ended " + e.Reason + " " + e.Session.DurationSeconds);
                        Loop.Run(() => GameCampaign.Init(ProbeDevice.Options("mover")), "init");
                        Loop.Run(Tracker.Flush, "flush");
                        answer["events"] = new List<object>(Events);
                        answer["received"] = Received();
                        answer["running"] = TrackerFiles.JsonFiles(player.Under(words[1]).RunningDir).Count;
                        answer["lockFiles"] = LockFiles(player.Under(words[1])).Count;
                        break;
                    case "record":
                        var running = player.Under(words[1]).RunningDir;
                        TrackerFiles.Write(Path.Combine(running, "0b0e6f52-0000-4000-8000-000000000001.json"), Bridge.Args("sessionId", "0b0e6f52-0000-4000-8000-000000000001", "userId", "mover", "startedAtMs", 1780315200000.0, "spanMs", 1000.0, "playedMs", 1000.0, "owner", "runB"));
                        break;
                    case "adopt":
                        var own = player.Under(words[1]);
                        AdoptAll(own, player.Under(words[2]));
                        answer["runningHere"] = TrackerFiles.JsonFiles(own.RunningDir).Count;
                        break;
                    case "quit":
                        Console.WriteLine("@{}");
                        return ProbeExit.Now(0);
                }
            }
            catch (Exception error)
            {
                answer["error"] = error.ToString();
            }
            Console.WriteLine("@" + Json.Serialize(answer));
        }
        return ProbeExit.Now(0);
    }

    private static List<object> LockFiles(PlayerFolder folder)
    {
        var names = new List<object>();
        if (Directory.Exists(folder.AliveDir)) foreach (var path in Directory.GetFiles(folder.AliveDir)) names.Add(Path.GetFileName(path));
        return names;
    }
}
