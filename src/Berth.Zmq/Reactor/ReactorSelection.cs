namespace Berth.Zmq;

/// <summary>
/// Chooses the readiness reactor of a new context: epoll on Linux, the portable <c>zmq_poll</c> reactor elsewhere, or
/// everywhere when the <c>Berth.Zmq.PortableReactor</c> AppContext switch is on or <c>BERTH_ZMQ_REACTOR=poll</c> is set;
/// and whether the reactor runs woken continuations itself, the default, or queues them to the thread pool (the
/// <c>Berth.Zmq.InlineCompletions</c> switch set to false or <c>BERTH_ZMQ_INLINE_COMPLETIONS=0</c>).
/// </summary>
internal static class ReactorSelection
{
    public const string SwitchName = "Berth.Zmq.PortableReactor";
    public const string EnvironmentVariable = "BERTH_ZMQ_REACTOR";
    public const string InlineSwitchName = "Berth.Zmq.InlineCompletions";
    public const string InlineEnvironmentVariable = "BERTH_ZMQ_INLINE_COMPLETIONS";

    /// <summary>Read once per context, when it is created.</summary>
    public static bool PortableRequested() =>
        !OperatingSystem.IsLinux()
        || (AppContext.TryGetSwitch(SwitchName, out var on)
            ? on
            : string.Equals(Environment.GetEnvironmentVariable(EnvironmentVariable), "poll", StringComparison.OrdinalIgnoreCase));

    /// <summary>Read once per context, when it is created.</summary>
    public static bool InlineCompletionsRequested() =>
        AppContext.TryGetSwitch(InlineSwitchName, out var on)
            ? on
            : Environment.GetEnvironmentVariable(InlineEnvironmentVariable) != "0";

    public static IReadinessReactor Create(bool portable, bool inline) =>
        portable ? new PollReadinessReactor(inline) : new EpollReadinessReactor(inline);
}
