using Berth.Report;
using Berth.Results;

try
{
    if (args.Length > 0 && args[0] == "measure")
    {
        return MeasuredRun.Run(args[1..]);
    }

    if (args.Length > 0 && args[0] == "codecs")
    {
        return CodecComparison.Run(args[1..]);
    }

    var options = ReportOptions.Parse(args);
    HostInfo? host = null;
    var results = new List<BenchmarkResult>();
    foreach (var directory in options.ResultDirectories)
    {
        var (directoryHost, directoryResults) = BenchmarkExportReader.ReadDirectory(directory);
        host ??= directoryHost;
        results.AddRange(directoryResults);
    }

    var inputs = new ReportInputs(
        host,
        results,
        new BaselineCatalog(typeof(Berth.Benchmarks.Articles.NativeInterop.AllocationBenchmarks).Assembly),
        options.JavaTables is not null && File.Exists(options.JavaTables) ? ExtraTable.ReadFile(options.JavaTables) : [],
        options.BenchmarkCommand,
        options.Notes);

    // Paths in generated blocks are from the repository root, which scripts/report.sh runs from.
    var root = Directory.GetCurrentDirectory();
    var outputDirectory = Path.GetDirectoryName(Path.GetFullPath(options.Output))!;
    var dataFile = Path.GetFullPath(options.DataFile ?? Path.Combine(outputDirectory, "data", "bench", "performance.json"));
    var chartsDirectory = Path.GetFullPath(options.ChartsDirectory);
    var chartLink = Path.GetRelativePath(outputDirectory, chartsDirectory).Replace('\\', '/') + "/";
    var document = new ReportDocument(inputs, chartLink, Path.GetRelativePath(root, dataFile).Replace('\\', '/'));
    var markdown = document.Build();

    // Without a measured run (a dry smoke of the pipeline) the provenance says the other processes' CPU was not measured.
    var provenance = options.RunFile is not null
        ? ResultFileReader.Read(options.RunFile).Provenance
        : RunConditions.Start(options.BenchmarkCommand).Unmeasured();
    ResultFileWriter.Write(dataFile, new ResultFile(provenance, document.Data.Tables));

    var errors = new List<string>();
    markdown = GeneratedBlocks.Render(markdown, options.Output, root, new ResultFileCache(), errors, options.Output);
    if (errors.Count > 0)
    {
        throw new InvalidDataException(string.Join("\n", errors));
    }

    Directory.CreateDirectory(chartsDirectory);
    foreach (var stale in Directory.EnumerateFiles(chartsDirectory, "*.svg"))
    {
        File.Delete(stale);
    }

    foreach (var (name, svg) in document.Charts)
    {
        File.WriteAllText(Path.Combine(chartsDirectory, name), svg);
    }

    File.WriteAllText(options.Output, markdown);
    Console.WriteLine($"wrote {options.Output} and {dataFile}: {results.Count} benchmark cases, {document.Charts.Count} charts in {options.ChartsDirectory}");
    return 0;
}
catch (Exception e) when (e is ArgumentException or IOException or InvalidDataException or System.Text.Json.JsonException)
{
    Console.Error.WriteLine($"report: {e.Message}");
    return 1;
}
