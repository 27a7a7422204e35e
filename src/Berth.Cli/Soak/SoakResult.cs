namespace Berth.Cli.Soak;

/// <summary>Everything a soak measured, and its verdict.</summary>
internal sealed record SoakResult(
    SoakSettings Settings,
    IReadOnlyList<SoakSample> Samples,
    IReadOnlyList<ChurnRound> Rounds,
    SoakSample Settled,
    SoakSample AfterAggressiveGc)
{
    public long WitnessFrames { get; init; }

    public long WitnessLost { get; init; }

    public long WitnessCorrupted { get; init; }

    /// <summary>Echo-load connections that failed (dropped by the server or sent a wrong echo).</summary>
    public long LoadErrors { get; init; }

    /// <summary>Connections that echoed one checked frame and closed cleanly.</summary>
    public long Churned { get; init; }

    public long ChurnFailures { get; init; }

    public IReadOnlyDictionary<string, AttackCount> Attacks { get; init; } = new Dictionary<string, AttackCount>();

    /// <summary>Pooled buffers the server had not returned once the run was over: 0 unless one leaked.</summary>
    public long PooledBuffersOutstanding { get; init; }

    public SoakVerdict Verdict => SoakVerdict.Judge(this);
}

/// <summary>The figures after one round of pure connect-and-reset churn, once the server let go of every connection.</summary>
internal sealed record ChurnRound(int Round, long Resets, long ResidentBytes, long GcHeapBytes, long GcCommittedBytes, long PooledBuffersOutstanding);
