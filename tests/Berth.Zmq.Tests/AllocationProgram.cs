using System.Globalization;

namespace Berth.Zmq.Tests;

/// <summary>
/// The test assembly's entry point, used only by the allocation tests: they start it as a child process so that the
/// process-wide allocation counter sees the workload alone, not the test runner's own traffic.
/// </summary>
public static class AllocationProgram
{
    /// <summary>
    /// <c>allocation PATH SIZE blocking|async|async-poll|async-inline</c>: runs one workload and prints the bytes allocated over
    /// N messages, over 10N, and N; <c>async-poll</c> waits through the portable <c>zmq_poll</c> reactor instead of epoll;
    /// <c>async-inline</c> runs woken continuations on the epoll reactor's thread; <c>router-dealer</c> sends blocking from
    /// a DEALER to a ROUTER instead of PUSH to PULL. <c>typed messages|requests</c> runs
    /// typed struct messages or request/response round trips instead.
    /// </summary>
    /// <param name="args">The workload.</param>
    /// <returns>0 when measured, 2 on bad arguments.</returns>
    public static async Task<int> Main(string[] args)
    {
        if (args is ["typed", var typedMode])
        {
            using var typedContext = new ZmqContext();
            var typed = await Typed.TypedAllocationWorkload.MeasureAsync(typedContext, typedMode);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{typed.Few} {typed.Many} {typed.Messages}"));
            return 0;
        }

        if (args.Length != 4 || args[0] != "allocation")
        {
            await Console.Error.WriteLineAsync("usage: allocation SpanCopied|SpanPooled|MessageInitSize|MessagePooled SIZE blocking|async|async-poll|async-inline|router-dealer");
            return 2;
        }

        var path = Enum.Parse<AllocationWorkload.SendPath>(args[1]);
        var size = int.Parse(args[2], CultureInfo.InvariantCulture);
        using var context = new ZmqContext();
        context.PortableReactor |= args[3] == "async-poll";
        context.InlineCompletions = args[3] == "async-inline";
        var workload = new AllocationWorkload(context, path, size, routerDealer: args[3] == "router-dealer");
        var allocation = args[3] is "blocking" or "router-dealer" ? workload.Measure() : await workload.MeasureAsync();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{allocation.Few} {allocation.Many} {allocation.Messages}"));
        return 0;
    }
}
