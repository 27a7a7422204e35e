using Berth.Report;

try
{
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
        ExtraTable.ReadDirectory(options.ExtraTables),
        options.Findings is not null && File.Exists(options.Findings) ? File.ReadAllText(options.Findings) : null,
        options.BenchmarkCommand,
        options.Notes,
        DateTimeOffset.UtcNow);

    var outputDirectory = Path.GetDirectoryName(Path.GetFullPath(options.Output))!;
    var chartsDirectory = Path.GetFullPath(options.ChartsDirectory);
    var chartLink = Path.GetRelativePath(outputDirectory, chartsDirectory).Replace('\\', '/') + "/";
    var document = new ReportDocument(inputs, chartLink);
    var markdown = document.Build();

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
    Console.WriteLine($"wrote {options.Output}: {results.Count} benchmark cases, {document.Charts.Count} charts in {options.ChartsDirectory}");
    return 0;
}
catch (Exception e) when (e is ArgumentException or IOException or InvalidDataException or System.Text.Json.JsonException)
{
    Console.Error.WriteLine($"report: {e.Message}");
    return 1;
}
