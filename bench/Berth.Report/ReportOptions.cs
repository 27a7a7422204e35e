namespace Berth.Report;

/// <summary>The command line: where the inputs are and where the report and its result file go.</summary>
internal sealed record ReportOptions(
    IReadOnlyList<string> ResultDirectories,
    string? JavaTables,
    string Output,
    string ChartsDirectory,
    string? DataFile,
    string? RunFile,
    string BenchmarkCommand,
    IReadOnlyList<string> Notes)
{
    public const string Usage =
        "usage: Berth.Report --results DIR [--results DIR...] [--java FILE] --output FILE --charts DIR\n" +
        "                    [--data FILE] [--run FILE] --command TEXT [--note TEXT...]\n" +
        "       Berth.Report measure --out FILE --command TEXT -- PROGRAM [ARGS...]\n" +
        CodecComparison.Usage;

    public static ReportOptions Parse(IReadOnlyList<string> args)
    {
        var results = new List<string>();
        var notes = new List<string>();
        string? java = null, output = null, charts = null, data = null, run = null, command = null;
        for (var i = 0; i < args.Count; i++)
        {
            var value = i + 1 < args.Count ? args[i + 1] : throw new ArgumentException($"{args[i]} needs a value\n{Usage}");
            switch (args[i])
            {
                case "--results": results.Add(value); break;
                case "--java": java = value; break;
                case "--output": output = value; break;
                case "--charts": charts = value; break;
                case "--data": data = value; break;
                case "--run": run = value; break;
                case "--command": command = value; break;
                case "--note": notes.Add(value); break;
                default: throw new ArgumentException($"unknown option {args[i]}\n{Usage}");
            }

            i++;
        }

        if (results.Count == 0 || output is null || charts is null || command is null)
        {
            throw new ArgumentException(Usage);
        }

        return new ReportOptions(results, java, output, charts, data, run, command, notes);
    }
}
