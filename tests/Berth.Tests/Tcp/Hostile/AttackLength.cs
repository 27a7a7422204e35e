namespace Berth.Tests.Tcp.Hostile;

/// <summary>
/// How hard the attacks push. CI runs the short forms; <c>BERTH_LONG_ATTACKS=1</c> runs each attack at the size the
/// reliability figures quote (2,000 slow headers, 200,000 resets, a 1 MiB frame dribbled, ...).
/// </summary>
internal static class AttackLength
{
    public static bool Long { get; } = Environment.GetEnvironmentVariable("BERTH_LONG_ATTACKS") == "1";

    public static int Pick(int shortForm, int longForm) => Long ? longForm : shortForm;
}
