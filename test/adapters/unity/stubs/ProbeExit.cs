// Not a UnityEngine member: how the C# probes and the scenario runner end their process (compiled with the stand-ins).
using System;

/// <summary>
/// Ends a probe's process once its output is written. Returning from Main lets Debian's mono 6.8 wait for the thread
/// pool's workers, and a worker parked just then is now and then not woken until its park times out, 5 to 60 s later
/// (mono/mono#9000; the closed pull request #9042, "Fix/mitigate 5-60 second hang at shutdown"). gdb on
/// such a process: the main thread in mono_main's wait for threads, one "Thread Pool Worker" in sem_timedwait. The
/// Editor probe lingered so for over 6 s after 4 of 125 runs here, 20 s once in editor.test.ts, and once past its 30 s.
/// Environment.Exit does not wait for those workers (a Unity player ends on Application.Quit, never by returning from Main).
/// </summary>
internal static class ProbeExit
{
    internal static int Now(int code)
    {
        Console.Out.Flush();
        Console.Error.Flush();
        Environment.Exit(code);
        return code;
    }
}
