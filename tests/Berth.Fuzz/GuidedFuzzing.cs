using SharpFuzz;

namespace Berth.Fuzz;

/// <summary>
/// Hands a target to AFL++ through SharpFuzz: AFL++ mutates the raw bytes guided by the branch coverage of the
/// instrumented Berth.dll, and a broken check becomes an exception, which AFL++ records as a crash.
/// </summary>
internal static class GuidedFuzzing
{
    /// <summary>
    /// Serves AFL++. The target is created inside the first run because instrumented Berth code may only execute once
    /// SharpFuzz has attached the coverage map; touching it earlier crashes the process.
    /// </summary>
    public static void Run(Func<IFuzzTarget> create)
    {
        var input = new MemoryStream();
        IFuzzTarget? target = null;
        Fuzzer.OutOfProcess.Run(stream =>
        {
            target ??= create();
            input.SetLength(0);
            stream.CopyTo(input);
            var outcome = target.RunRaw(input.GetBuffer().AsSpan(0, (int)input.Length));
            if (outcome.Failure is not null)
            {
                throw new InvalidOperationException(outcome.Failure);
            }
        });
    }
}
