namespace Berth.Cli.Compare;

/// <summary>One workload of the comparison: body size, connection count and frames in flight per connection.</summary>
internal sealed record CompareCell(int Size, int Connections, int Pipeline)
{
    /// <summary>Keeps at most 256 KiB in flight per connection, so 64 KiB echoes stay inside a 1 MiB send queue.</summary>
    private const int InFlightBytesPerConnection = 256 * 1024;

    public static CompareCell Pipelined(int size, int connections) =>
        new(size, connections, Math.Clamp(InFlightBytesPerConnection / (size + 4), 1, 16));

    public string Label => $"{SizeLabel(Size)} × {Connections}";

    private static string SizeLabel(int size) =>
        size % 1024 == 0 ? $"{size / 1024} KB" : $"{size} B";
}
