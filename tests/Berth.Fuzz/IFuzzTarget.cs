namespace Berth.Fuzz;

/// <summary>One API under fuzzing: turns a case seed (or raw bytes from a coverage-guided fuzzer) into checked calls.</summary>
internal interface IFuzzTarget
{
    /// <summary>Name used on the command line and in reports.</summary>
    string Name { get; }

    /// <summary>Generates and checks case <paramref name="caseSeed"/>.</summary>
    CaseOutcome Run(ulong caseSeed);

    /// <summary>Checks an input given as raw bytes; its first bytes choose the variant and the segmentation.</summary>
    CaseOutcome RunRaw(ReadOnlySpan<byte> raw);
}

/// <summary>
/// What one case found: the broken promise (null when every check held), the bytes the checked calls allocated on
/// this thread, and how many of those the API documents (strings it returns, exceptions it throws).
/// </summary>
internal readonly record struct CaseOutcome(string? Failure, long Allocated, long AllocationAllowed);
