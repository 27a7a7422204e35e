using System.Diagnostics;
using Berth.Results;

namespace Berth.Report;

/// <summary>
/// <c>Berth.Report measure --out FILE --command TEXT -- PROGRAM [ARGS...]</c>: runs the benchmarks as a child process
/// and records the run's provenance, with the other processes' CPU share measured over it, as a result file without
/// tables. The report takes its provenance from that file, so a later <c>--report-only</c> still describes the run.
/// </summary>
internal static class MeasuredRun
{
    public static int Run(IReadOnlyList<string> args)
    {
        var separator = args.ToList().IndexOf("--");
        string? output = null, command = null;
        for (var i = 0; i + 1 < (separator < 0 ? args.Count : separator); i += 2)
        {
            switch (args[i])
            {
                case "--out": output = args[i + 1]; break;
                case "--command": command = args[i + 1]; break;
                default: throw new ArgumentException($"unknown option {args[i]}\n{ReportOptions.Usage}");
            }
        }

        if (separator < 0 || separator == args.Count - 1 || output is null || command is null)
        {
            throw new ArgumentException(ReportOptions.Usage);
        }

        var conditions = RunConditions.Start(command);
        var start = new ProcessStartInfo(args[separator + 1]) { UseShellExecute = false };
        foreach (var argument in args.Skip(separator + 2))
        {
            start.ArgumentList.Add(argument);
        }

        using var child = Process.Start(start) ?? throw new IOException($"could not start {args[separator + 1]}");
        child.WaitForExit();
        var provenance = conditions.Finish();
        ResultFileWriter.Write(output, new ResultFile(provenance, []));
        Console.WriteLine($"run conditions: {RunConditions.LoadText(provenance.LoadAtStart)}; {RunConditions.OtherCpuText(provenance)}");
        return child.ExitCode;
    }
}
