namespace Berth.Fuzz;

/// <summary>
/// SplitMix64: a value type so that drawing numbers never allocates, and a case is reproduced from its seed alone.
/// </summary>
internal struct FuzzRandom(ulong seed)
{
    private ulong _state = seed;

    /// <summary>The seed of case <paramref name="index"/> in a run started with <paramref name="runSeed"/>.</summary>
    public static ulong CaseSeed(ulong runSeed, long index)
    {
        var mixer = new FuzzRandom(runSeed ^ ((ulong)index * 0x9E3779B97F4A7C15UL));
        return mixer.NextUInt64();
    }

    public ulong NextUInt64()
    {
        var z = _state += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }

    /// <summary>A number in [0, <paramref name="exclusiveMax"/>).</summary>
    public int Next(int exclusiveMax) => exclusiveMax <= 1 ? 0 : (int)(NextUInt64() % (ulong)exclusiveMax);

    /// <summary>A number in [<paramref name="min"/>, <paramref name="exclusiveMax"/>).</summary>
    public int Next(int min, int exclusiveMax) => min + Next(exclusiveMax - min);

    /// <summary>True once in <paramref name="n"/> draws on average.</summary>
    public bool OneIn(int n) => Next(n) == 0;

    public byte NextByte() => (byte)NextUInt64();

    public void Fill(Span<byte> destination)
    {
        foreach (ref var b in destination)
        {
            b = NextByte();
        }
    }

    /// <summary>A length that is usually small and sometimes up to <paramref name="max"/>, so short frames dominate.</summary>
    public int SkewedLength(int max) => Next(4) switch
    {
        0 => Math.Min(max, Next(4)),
        1 or 2 => Math.Min(max, Next(40)),
        _ => Next(max + 1),
    };
}
