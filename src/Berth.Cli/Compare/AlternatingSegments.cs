namespace Berth.Cli.Compare;

/// <summary>
/// How two servers share one paired measurement: both up, the load alternating between them in short segments, first,
/// second, second, first, ... (or the mirror), so a drift of the machine's speed within the pair falls on both sides of
/// its ratio alike (docs/RESULTS.md, "How far a round moves on its own"). The comparison's pairs and
/// <c>berth aot-vs-jit</c>'s NativeAOT-against-JIT pairs both run this way.
/// </summary>
internal static class AlternatingSegments
{
    /// <summary>Segments per server in a pair; each measures this share of the measured time.</summary>
    public const int Count = 4;

    /// <summary>Load before a later segment's measured window, while its fresh connections fill their pipelines.</summary>
    public static readonly TimeSpan Ramp = TimeSpan.FromSeconds(0.25);

    /// <summary>
    /// The two sides in the order segment <paramref name="segment"/> runs them: <paramref name="first"/> leads the even
    /// segments and <paramref name="second"/> the odd ones, or the other way round when <paramref name="mirrored"/>.
    /// </summary>
    public static T[] Order<T>(T first, T second, int segment, bool mirrored) =>
        (segment % 2 == 0) != mirrored ? [first, second] : [second, first];
}
