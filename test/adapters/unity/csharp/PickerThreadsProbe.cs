// Creator pickers created on four threads at once (a game's boost screens opened after awaits with
// ConfigureAwait(false)): each picker must get its own handle and hear its own events. Unity's main thread is a
// FrameContext the probe pumps; the native side is answered by hand. Prints one JSON report. Compiled with HandNative.cs.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using GameCampaignSdk;

internal static class PickerThreadsProbe
{
    private const int Threads = 4;
    private const int PerThread = 10000;

    private static int Main()
    {
        // The player starts (Unity's order: SubsystemRegistration, then BeforeSceneLoad) on a main thread of its own.
        FrameContext frames;
        var native = HandNative.StartPlayer(out frames);

        var created = new List<Task<CreatorPicker>>();
        var workers = new List<Thread>();
        for (var t = 0; t < Threads; t++)
        {
            var worker = new Thread(() =>
            {
                var mine = new List<Task<CreatorPicker>>();
                for (var i = 0; i < PerThread; i++) mine.Add(CreatorPicker.Create("cmp_spring_festival"));
                lock (created) created.AddRange(mine);
            });
            workers.Add(worker);
            worker.Start();
        }
        foreach (var worker in workers) worker.Join();
        frames.NextFrame(); // every picker.open reaches the native side, on the main thread

        var handles = new HashSet<double>();
        foreach (var call in native.Calls)
        {
            handles.Add((double)call.Value["picker"]);
            native.Answer(call.Key, new Dictionary<string, object> { { "state", new Dictionary<string, object>() } });
        }
        frames.NextFrame();
        // One change event for each handle: each picker hears its own, once.
        var heard = new Dictionary<CreatorPicker, int>();
        foreach (var opening in created)
        {
            var picker = opening.Result;
            heard[picker] = 0;
            picker.Changed += state => heard[picker]++;
        }
        foreach (var handle in handles) native.Push(new Dictionary<string, object> { { "event", "picker:change" }, { "picker", handle }, { "data", new Dictionary<string, object>() } });
        frames.NextFrame();
        var heardOnce = 0;
        foreach (var count in heard.Values) if (count == 1) heardOnce++;
        var report = new Dictionary<string, object>
        {
            { "created", (double)created.Count },
            { "handles", (double)handles.Count },
            { "heardOnce", (double)heardOnce },
        };
        Console.WriteLine(Json.Serialize(report));
        return ProbeExit.Now(0);
    }
}
