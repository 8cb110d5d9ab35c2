// What the replay programs share: reading the scenario text the C replays read
// (whitespace-separated, floats in shortest round-trip decimal), and printing float bits.

using System;
using System.Globalization;

static class Input
{
    static string[] tokens;
    static int next;

    /// Reads all of standard input.
    public static void Load()
    {
        tokens = Console.In.ReadToEnd().Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
    }

    static string Token()
    {
        if (next >= tokens.Length)
        {
            Console.Error.WriteLine("input ended early");
            Environment.Exit(2);
        }
        return tokens[next++];
    }

    public static float Float()
    {
        string token = Token();
        float value = float.Parse(token, NumberStyles.Float, CultureInfo.InvariantCulture);
        // Mono's parser (as .NET Framework's) reads "-0" as +0; RVO2's Circle has goals at -0.
        if (value == 0.0f && token.StartsWith("-", StringComparison.Ordinal))
        {
            value = -value;
        }
        return value;
    }

    public static int Count()
    {
        return int.Parse(Token(), CultureInfo.InvariantCulture);
    }

    public static ulong Seed()
    {
        return ulong.Parse(Token(), CultureInfo.InvariantCulture);
    }

    /// The float's bits as 8 hex digits.
    public static unsafe string Hex(float f)
    {
        return (*(uint*)&f).ToString("x8");
    }
}
