namespace Berth.Benchmarks.Messages;

/// <summary>
/// Calls the Generated, MemoryPack and HandWritten methods of both codec benchmarks (the five-field struct and the
/// string-and-array message) until the JIT has given each its optimized code, so that <c>DOTNET_JitDisasm</c> prints what BenchmarkDotNet's measured loop runs. The listing is
/// for reading instruction and call counts (docs/decisions/struct-codec.md), not for timing.
/// </summary>
internal static class CodecJitWarmup
{
    public const string Argument = "--codec-jit-listing";

    public static void Run()
    {
        var fixedMessage = new FixedMessageBenchmarks();
        fixedMessage.Setup();
        var stringArray = new StringArrayMessageBenchmarks();
        stringArray.Setup();
        Func<long>[] methods =
        [
            fixedMessage.Generated, fixedMessage.MemoryPack, fixedMessage.HandWritten,
            () => stringArray.Generated().Id, () => stringArray.MemoryPack().Id, () => stringArray.HandWritten().Id,
        ];
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
