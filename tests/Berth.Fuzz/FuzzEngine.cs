using System.Diagnostics;

namespace Berth.Fuzz;

/// <summary>
/// Runs cases of one target from a seed and counts what broke: failed checks, unexpected exceptions, and cases that
/// allocated more than the API documents once the warm-up cases have run, twice in a row.
/// </summary>
internal static class FuzzEngine
{
    /// <summary>How many failures a report keeps in full; the rest are only counted.</summary>
    private const int KeptFailures = 10;

    public static FuzzReport Run(IFuzzTarget target, long cases, ulong seed, long warmUpCases)
    {
        var failures = new List<string>();
        long failed = 0;
        long allocatingCases = 0;
        long excessBytes = 0;
        var stopwatch = Stopwatch.StartNew();
        for (long index = 0; index < cases; index++)
        {
            var caseSeed = FuzzRandom.CaseSeed(seed, index);
            string? failure;
            long excess = 0;
            try
            {
                var outcome = target.Run(caseSeed);
                failure = outcome.Failure;
                excess = Math.Max(0, outcome.Allocated - outcome.AllocationAllowed);
                if (excess > 0 && failure is null)
                {
                    // A case decodes the same bytes the same way every time, so its own allocation repeats. What the
                    // runtime did once on this thread while it ran (tiered compilation reaching a method's call count
                    // late, on a machine busy compiling other code) does not: only an allocation that repeats counts.
                    var again = target.Run(caseSeed);
                    excess = Math.Max(0, again.Allocated - again.AllocationAllowed);
                }
            }
            catch (Exception e)
            {
                failure = $"threw {e.GetType().Name}: {e.Message}";
            }

            if (index >= warmUpCases && excess > 0)
            {
                allocatingCases++;
                excessBytes += excess;
                failure ??= $"allocated {excess} bytes more than documented";
            }

            if (failure is not null)
            {
                failed++;
                if (failures.Count < KeptFailures)
                {
                    failures.Add($"case {index} (--replay {caseSeed}): {failure}");
                }
            }
        }

        return new FuzzReport(target.Name, cases, seed, stopwatch.Elapsed, failed, allocatingCases, excessBytes, failures);
    }
}

/// <summary>The outcome of a run of one target.</summary>
internal sealed record FuzzReport(
    string Target,
    long Cases,
    ulong Seed,
    TimeSpan Elapsed,
    long Failed,
    long AllocatingCases,
    long ExcessBytes,
    IReadOnlyList<string> Failures)
{
    public double CasesPerSecond => Cases / Math.Max(Elapsed.TotalSeconds, 1e-9);

    public override string ToString() =>
        $"{Target}: {Cases:N0} cases, seed {Seed}, {Elapsed.TotalSeconds:F1} s ({CasesPerSecond:N0} cases/s), " +
        $"{Failed} failed, {AllocatingCases} cases allocated beyond what is documented ({ExcessBytes} B)";
}
