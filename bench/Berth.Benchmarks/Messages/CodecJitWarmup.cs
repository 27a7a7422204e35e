namespace Berth.Benchmarks.Messages;

/// <summary>
/// Calls the five-field struct's Generated, MemoryPack and HandWritten methods until the JIT has given each its
/// optimized code, so that <c>DOTNET_JitDisasm</c> prints what BenchmarkDotNet's measured loop runs. The listing is
/// for reading instruction and call counts (docs/decisions/struct-codec.md), not for timing.
/// </summary>
internal static class CodecJitWarmup
{
    public const string Argument = "--codec-jit-listing";

    public static void Run()
    {
        var benchmarks = new FixedMessageBenchmarks();
        benchmarks.Setup();
        Func<long>[] methods = [benchmarks.Generated, benchmarks.MemoryPack, benchmarks.HandWritten];
        var sink = 0L;
        for (var round = 0; round < 20; round++)
        {
            foreach (var method in methods)
            {
                for (var i = 0; i < 200_000; i++)
                {
                    sink += method();
                }
            }

            // Lets the background compiler install the optimized code between rounds.
            Thread.Sleep(150);
        }

        Console.WriteLine(sink);
    }
}
