// The managed tracker's Dispose aborting the flush's request in flight through UnityWebRequest itself (the stand-in's,
// over a real socket), not the HTTP seam: a program of its own, as mono's full AOT gives each assembly a fixed number
// of trampolines and ManagedLifecycleProbe's stories use nearly all of mscorlib's (4096). Prints one JSON report that
// test/adapters/unity/managed-lifecycle.test.ts checks. args: device folder.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;
using UnityEngine;

internal static class ManagedAbortProbe
{
    private static readonly MainLoop Loop = ProbeDevice.Loop;
    private static readonly Dictionary<string, object> Report = new Dictionary<string, object>();

    private static int Main(string[] args)
    {
        ProbeDevice.Open(args[0]);
        DisposeDuringUnityWebRequest();
        Console.WriteLine(Json.Serialize(Report));
        return ProbeExit.Now(0);
    }

    private static void NewProcess()
    {
        UnityProcess.Start(Loop);
    }

    private static void Init(string player, GameCampaignOptions options = null)
    {
        Loop.Run(() => GameCampaign.Init(options ?? ProbeDevice.Options(player)), "init");
    }

    /// <summary>A session of 3 s queued while the device was offline (the fake relay), in a process then killed.</summary>
    private static void QueuedOffline(string player)
    {
        NewProcess();
        Init(player);
        Application.Reachability = NetworkReachability.NotReachable;
        Loop.Run(() => Tracker.Start(), "start");
        ProbeDevice.Pass(3000);
        Loop.Run(Tracker.Stop, "stop");
        Application.Reachability = NetworkReachability.ReachableViaLocalAreaNetwork;
    }

    /// <summary>
    /// Dispose while the flush's request waits, through UnityWebRequest (the stand-in's, over a real socket): a relay that takes the request and does
    /// not answer; Dispose aborts it (UnityWebRequest.Abort: the relay sees the connection close), the flush completes
    /// without waiting for the 30 s time-out, nothing is reported, and the session stays queued.
    /// </summary>
    private static void DisposeDuringUnityWebRequest()
    {
        QueuedOffline("socket-dispose");
        var folder = PlayerFolder.For("ck_g1_sandbox", "sandbox", true, "socket-dispose");
        var events = new List<object>();
        Tracker.Flushed += e => events.Add("flushed " + e.Results[0].Status);
        Tracker.Dropped += e => events.Add("dropped " + e.Reason);
        Tracker.Error += e => events.Add("error " + e.Kind);
        var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        var port = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        var requestRead = new ManualResetEvent(false);
        string closed = "open";
        var server = new Thread(() =>
        {
            using (var client = listener.AcceptTcpClient())
            {
                var stream = client.GetStream();
                stream.ReadTimeout = 20000;
                var buffer = new byte[65536];
                var text = "";
                try
                {
                    // Reads the request (headers and body), answers nothing, and waits for the client to close.
                    while (true)
                    {
                        var read = stream.Read(buffer, 0, buffer.Length);
                        if (read == 0) { closed = "closed by the player"; break; }
                        text += System.Text.Encoding.UTF8.GetString(buffer, 0, read);
                        if (text.Contains("\"sessions\"") && text.TrimEnd().EndsWith("}", StringComparison.Ordinal)) requestRead.Set();
                    }
                }
                catch (System.IO.IOException) { closed = requestRead.WaitOne(0) ? "still open after 20 s" : "no request"; }
            }
        }) { IsBackground = true }; // never what keeps the program from exiting
        server.Start();
        // Relay URL on the real socket: the package's own UnityWebRequest path, not the test seam.
        HttpExchange.Transport = null;
        var options = ProbeDevice.Options("socket-dispose");
        options.RelayUrl = "http://127.0.0.1:" + port + "/sandbox/campaign";
        NewProcess();
        Init("socket-dispose", options);
        Loop.Settle();
        var flush = Tracker.Flush();
        var arrived = requestRead.WaitOne(20000);
        Loop.Settle();
        Task disposing = null;
        Loop.Run(() => { disposing = GameCampaign.Dispose(); return Task.FromResult(0); }, "dispose");
        var flushStatus = flush.Status + " " + disposing.Status;
        server.Join(30000);
        // Unity completes the aborted request on a later frame: its completion disposes it and is not heard.
        Loop.Settle();
        listener.Stop();
        HttpExchange.Transport = ProbeDevice.Relay.Exchange;
        Report["socketDispose"] = (arrived ? "request arrived, " : "no request, ") + closed + ", " + flushStatus;
        Report["socketDisposeEvents"] = events;
        Report["socketDisposeQueued"] = (double)TrackerFiles.JsonFiles(folder.QueueDir).Count;
    }
}
