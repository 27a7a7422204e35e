namespace Berth.Report;

/// <summary>The machine and runtime BenchmarkDotNet recorded for a run.</summary>
internal sealed record HostInfo(string Os, string Processor, int PhysicalCores, int LogicalCores, string Runtime, string BenchmarkDotNet)
{
    public string Describe() =>
        $"{Processor}, {PhysicalCores} physical / {LogicalCores} logical cores, {Os}; {Runtime}; BenchmarkDotNet {BenchmarkDotNet}";
}
