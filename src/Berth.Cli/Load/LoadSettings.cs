namespace Berth.Cli.Load;

/// <summary>One load run against a Berth-format echo server.</summary>
internal sealed record LoadSettings
{
    public required string Host { get; init; }

    public required int Port { get; init; }

    /// <summary>When set, connections go to this Unix domain socket path instead of <see cref="Host"/> and <see cref="Port"/>.</summary>
    public string? UnixSocketPath { get; init; }

    /// <summary>What the connections go to, as reports name it.</summary>
    public string Target => UnixSocketPath is null ? $"{Host}:{Port}" : $"unix:{UnixSocketPath}";

    public int Connections { get; init; } = 50;

    /// <summary>Smallest body; equal to <see cref="SizeMax"/> for a fixed size.</summary>
    public int SizeMin { get; init; } = 64;

    public int SizeMax { get; init; } = 64;

    /// <summary>Frames each connection keeps in flight (closed loop); ignored when <see cref="Rate"/> is set.</summary>
    public int Pipeline { get; init; } = 16;

    /// <summary>Requests per second per connection (open loop, one at a time); 0 means as fast as echoes return.</summary>
    public double Rate { get; init; }

    public TimeSpan Warmup { get; init; } = TimeSpan.FromSeconds(1);

    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>A short label for tables and charts, such as "64 B x 100 conn, pipeline 16".</summary>
    public string Describe()
    {
        var size = SizeMin == SizeMax ? $"{SizeMin} B" : $"{SizeMin}-{SizeMax} B";
        var pace = Rate > 0 ? $"{Rate:0.##} req/s each" : $"pipeline {Pipeline}";
        var over = UnixSocketPath is null ? "" : "unix: ";
        return $"{over}{size} x {Connections} conn, {pace}";
    }
}
