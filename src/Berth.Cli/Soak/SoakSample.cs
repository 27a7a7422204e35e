namespace Berth.Cli.Soak;

/// <summary>The figures of one second of a soak.</summary>
internal sealed record SoakSample(
    double Second,
    long ResidentBytes,
    long GcHeapBytes,
    long GcCommittedBytes,
    long AllocatedBytes,
    int Handles,
    long Threads,
    int Connections,
    long PooledBuffersOutstanding,
    long EchoesPerSecond,
    long WitnessFrames,
    double WitnessP99Microseconds,
    string Phase);
