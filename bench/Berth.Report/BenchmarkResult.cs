namespace Berth.Report;

/// <summary>One benchmark case from a BenchmarkDotNet JSON export; times are nanoseconds per operation.</summary>
internal sealed record BenchmarkResult(
    string Namespace,
    string Type,
    string Method,
    IReadOnlyList<KeyValuePair<string, string>> Parameters,
    double MeanNs,
    double? ErrorNs,
    double? StdDevNs,
    long? AllocatedBytes,
    string Job)
{
    public string FullType => $"{Namespace}.{Type}";

    public string ParameterKey => string.Join(", ", Parameters.Select(p => $"{p.Key}={p.Value}"));
}
