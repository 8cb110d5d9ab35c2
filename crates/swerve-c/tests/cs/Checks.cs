// What the checking programs share (Errors.cs, BallErrors.cs, BallErrors3D.cs): a check that prints what
// failed, one that a call raises exactly the exception expected with swerve's words in its
// message, and the last line tests/common's expect_all_checks_pass looks for.

using System;

static class Checks
{
    static int failures;

    public static void Check(bool condition, string what)
    {
        if (!condition)
        {
            ++failures;
            Console.WriteLine("FAILED: " + what);
        }
    }

    // Runs `call`, which must raise exactly a `T` whose message mentions `words`.
    public static void Raises<T>(Action call, string words, string what) where T : Exception
    {
        try
        {
            call();
            Check(false, what + ": nothing was raised");
        }
        catch (Exception e)
        {
            Check(e.GetType() == typeof(T), what + ": raised " + e.GetType().Name + " (" + e.Message + "), not " + typeof(T).Name);
            Check(e.Message.Contains(words), what + ": the message \"" + e.Message + "\" does not mention \"" + words + "\"");
        }
    }

    // The exit code; "all checks passed" when every check held.
    public static int Finish()
    {
        if (failures == 0)
        {
            Console.WriteLine("all checks passed");
        }
        return failures == 0 ? 0 : 1;
    }
}
