// Not a UnityEngine member: how the C# probes and the scenario runner end their process (compiled with the stand-ins).
using System;
using System.Runtime.InteropServices;

/// <summary>
/// Ends a probe's process once its output is written, with libc's <c>_exit</c>: no runtime shutdown at all.
/// Returning from Main lets Debian's mono 6.8 wait for the thread pool's workers, and a worker parked just then is now
/// and then not woken until its park times out, 5 to 60 s later (mono/mono#9000; the closed pull request #9042,
/// "Fix/mitigate 5-60 second hang at shutdown"). <c>Environment.Exit</c> skipped that wait, but its own shutdown can
/// deadlock: a fresh-clone CI hung for good in SampleProbe (2026-11-28), its report printed, the main thread in
/// <c>Environment.Exit</c> and two thread-pool workers (the stand-in UnityWebRequest's) blocked in
/// <c>System.Net.WebRequest.get_PrefixList</c>'s lock (mono's SIGQUIT thread dump; gdb: the main thread on a runtime
/// mutex). Nothing a probe reports is left in a buffer: the console is flushed here, and the SDK's files are written
/// and closed before a probe prints (a Unity player ends on Application.Quit, never like this).
/// </summary>
internal static class ProbeExit
{
    [DllImport("libc", EntryPoint = "_exit")]
    private static extern void ExitNow(int status);

    internal static int Now(int code)
    {
        Console.Out.Flush();
        Console.Error.Flush();
        ExitNow(code);
        return code;
    }
}
