namespace Berth.Cli.Soak;

/// <summary>What <c>berth soak</c> runs: load, churn and attacks against an in-process server, and how it is judged.</summary>
internal sealed record SoakSettings
{
    /// <summary>How long the mixed load runs.</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromMinutes(10);

    /// <summary>Echo connections kept open for the whole run.</summary>
    public int Connections { get; init; } = 50;

    /// <summary>Frames per second each echo connection sends.</summary>
    public double Rate { get; init; } = 100;

    /// <summary>Whether the hostile peers run alongside the load.</summary>
    public bool Hostile { get; init; } = true;

    /// <summary>Largest frame body the server accepts; the max + 1 attack announces one byte more.</summary>
    public int MaxFrame { get; init; } = 65_536;

    /// <summary>Rounds of pure connect-and-reset churn run after the mixed load (0: none).</summary>
    public int ChurnRounds { get; init; }

    /// <summary>Connect-and-reset connections in one churn round.</summary>
    public int ResetsPerRound { get; init; } = 200_000;

    /// <summary>Whether the server rents from <c>ArrayPool.Shared</c> instead of its default pool, to compare what each keeps.</summary>
    public bool SharedArrayPool { get; init; }

    /// <summary>Where soak.json and soak.html go.</summary>
    public string Output { get; init; } = "artifacts/soak";

    /// <summary>An extra result file (docs/RESULTS.md) with the judged figures, such as docs/data/reliability/soak.json, or null for none.</summary>
    public string? DataPath { get; init; }

    /// <summary>The command line as typed, recorded in the result file.</summary>
    public string Command { get; init; } = "berth soak";

    /// <summary>The RSS at the end may be at most this multiple of the RSS after warm-up.</summary>
    public double MaxGrowth { get; init; } = 1.2;

    /// <summary>Samples before this are warm-up: a tenth of the run, at least 3 s and at most 60 s.</summary>
    public TimeSpan WarmUp => TimeSpan.FromSeconds(Math.Clamp(Duration.TotalSeconds / 10, 3, 60));
}
