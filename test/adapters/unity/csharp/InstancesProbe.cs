// One process of a desktop game, driven line by line from stdin by test/adapters/unity/instances.test.ts, which runs
// two of them at once on one persistentDataPath (two copies of the same game for the same player). Each command
// runs on Unity's main thread (ProbeDevice's MainLoop) and everything it sets off settles before the answer: one
// line starting with "@" (the stand-in Debug.Log writes to stdout too). The relay is this process's FakeRelay; the
// test adds up what the relays of all processes received, as the one service would.
// Commands: init <player> | start | pass <ms> | stop | flush | optout true|false | quit | report | cannot-lock (Lock throws from now on)
using System;
using System.Collections.Generic;
using System.IO;
using GameCampaignSdk;
using UnityEngine;

internal static class InstancesProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly List<object> Ended = new List<object>();
    private static readonly List<object> Dropped = new List<object>();
    private static readonly List<object> Errors = new List<object>();

    private static int Main(string[] args)
    {
        ProbeDevice.Open(args[0]);
        UnityProcess.Start(Loop);
        Tracker.SessionEnded += e => Ended.Add(e.SessionId + " " + e.Reason + " " + e.Session.DurationSeconds);
        Tracker.Dropped += e => Dropped.Add(e.SessionId + " " + e.Reason);
        Tracker.Error += e => Errors.Add(e.Kind + " " + e.Message);
        string line;
        while ((line = Console.ReadLine()) != null)
        {
            var words = line.Split(' ');
            var answer = new Dictionary<string, object>();
            try
            {
                if (Run(words, answer)) return ProbeExit.Now(0);
            }
            catch (Exception error)
            {
                answer["error"] = error.ToString();
            }
            Console.WriteLine("@" + Json.Serialize(answer));
        }
        return ProbeExit.Now(0);
    }

    /// <summary>Runs one command; true when the process is to exit (quit: Unity's quitting, then the player exits).</summary>
    private static bool Run(string[] words, Dictionary<string, object> answer)
    {
        switch (words[0])
        {
            case "init":
                Loop.Run(() => GameCampaign.Init(ProbeDevice.Options(words[1])), "init");
                break;
            case "start":
                string sessionId = null;
                Loop.Run(async () => sessionId = await Tracker.Start(), "start");
                answer["sessionId"] = sessionId;
                break;
            case "pass":
                ProbeDevice.Pass(double.Parse(words[1], System.Globalization.CultureInfo.InvariantCulture));
                break;
            case "stop":
                Loop.Run(Tracker.Stop, "stop");
                break;
            case "flush":
                Loop.Run(Tracker.Flush, "flush");
                break;
            case "optout":
                Loop.Run(() => Tracker.SetOptOut(words[1] == "true"), "optout");
                break;
            case "quit":
                Application.Quit(); // Dispose, and wait for the last writes, as quitting a player does; then the process exits
                Console.WriteLine("@{}");
                return true;
            case "cannot-lock":
                AliveLock.LockRegion = stream => { throw new IOException("Permission denied"); };
                break;
            case "report":
                answer["received"] = Json.Write(ProbeDevice.Relay.Received, session => (object)(session.SessionId + " " + session.Player + " " + session.DurationSeconds));
                answer["ended"] = Ended;
                answer["dropped"] = Dropped;
                answer["errors"] = Errors;
                break;
            default:
                throw new ArgumentException("unknown command " + words[0]);
        }
        return false;
    }
}
