// What the replay programs share: reading the scenario text the C replays read
// (whitespace-separated, floats in shortest round-trip decimal, "inf" allowed), and printing
// float bits.

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
        // Rust (and C's printf) write infinity as "inf", which .NET does not read.
        if (token == "inf" || token == "+inf")
        {
            return float.PositiveInfinity;
        }
        if (token == "-inf")
        {
            return float.NegativeInfinity;
        }
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

    /// A word: a name, or an event's kind.
    public static string Word()
    {
        return Token();
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

    /// The double's bits as 16 hex digits.
    public static string Hex(double d)
    {
        return BitConverter.DoubleToInt64Bits(d).ToString("x16");
    }
}
