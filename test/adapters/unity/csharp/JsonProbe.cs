// Reads JSON texts with the package's Json.Parse and writes back what it made of each, so the Node test can hold
// it against JSON.parse. Input: one case a line, base64 of its UTF-16LE code units (any string travels intact,
// lone surrogates included, without trusting the reader under test). Output, a line per case:
// "ok <base64 UTF-16LE of Json.Serialize(value)>" (an infinity, which JSON cannot hold, as the string "Infinity" or "-Infinity"), "error <message>" for a FormatException, or
// "crash <type>: <message>" for any other exception.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using GameCampaignSdk;

internal static class JsonProbe
{
    // A thread's stack as small as a phone gives one (1 MB: Android's and iOS's secondary threads), where unbounded
    // recursion overflows long before mono's 8 MB main thread would.
    private const int StackBytes = 1024 * 1024;

    private static int Main(string[] args)
    {
        var thread = new Thread(() => Run(args[0]), StackBytes);
        thread.Start();
        thread.Join();
        return ProbeExit.Now(0);
    }

    private static void Run(string casesFile)
    {
        var output = new StringBuilder();
        foreach (var line in File.ReadAllLines(casesFile))
        {
            var text = FromUtf16(Convert.FromBase64String(line));
            try
            {
                var written = Json.Serialize(FiniteOnly(Json.Parse(text)));
                output.Append("ok ").Append(Convert.ToBase64String(ToUtf16(written))).Append('\n');
            }
            catch (FormatException error) { output.Append("error ").Append(error.Message.Replace('\n', ' ')).Append('\n'); }
            catch (Exception error) { output.Append("crash ").Append(error.GetType().Name).Append(": ").Append(error.Message.Replace('\n', ' ')).Append('\n'); }
        }
        Console.Write(output.ToString());
    }

    // By hand: Encoding.Unicode replaces a lone surrogate with U+FFFD, and the test sends lone surrogates on purpose.
    private static string FromUtf16(byte[] bytes)
    {
        var chars = new char[bytes.Length / 2];
        for (var i = 0; i < chars.Length; i++) chars[i] = (char)(bytes[2 * i] | bytes[2 * i + 1] << 8);
        return new string(chars);
    }

    private static byte[] ToUtf16(string text)
    {
        var bytes = new byte[text.Length * 2];
        for (var i = 0; i < text.Length; i++) { bytes[2 * i] = (byte)text[i]; bytes[2 * i + 1] = (byte)(text[i] >> 8); }
        return bytes;
    }

    private static object FiniteOnly(object value)
    {
        if (value is double && double.IsInfinity((double)value)) return (double)value > 0 ? "Infinity" : "-Infinity";
        var list = value as List<object>;
        if (list != null) return list.ConvertAll(FiniteOnly);
        var map = value as Dictionary<string, object>;
        if (map == null) return value;
        var copy = new Dictionary<string, object>();
        foreach (var entry in map) copy[entry.Key] = FiniteOnly(entry.Value);
        return copy;
    }
}
