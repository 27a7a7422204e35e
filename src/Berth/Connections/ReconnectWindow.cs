namespace Berth.Connections;

/// <summary>
/// The reconnect rule, full jitter over a window: an attempt waits a uniformly random time in [0, window). The first
/// window is <see cref="BerthClientOptions.ReconnectInitialDelay"/>, widened to <see cref="PerClient"/> for each client
/// made from the same options, so a server restart that cuts off ten thousand clients sees them return over a second,
/// about ten per millisecond, instead of all within a few milliseconds against an accept backlog of a thousand. Each
/// failed attempt doubles the window, up to <see cref="BerthClientOptions.ReconnectMaxDelay"/> or the first window if
/// that is wider.
/// </summary>
internal static class ReconnectWindow
{
    /// <summary>How much the first window widens per client sharing the options.</summary>
    public static readonly TimeSpan PerClient = TimeSpan.FromTicks(1_000);

    public static TimeSpan First(BerthClientOptions options, int clients) =>
        TimeSpan.FromTicks(Math.Max(options.ReconnectInitialDelay.Ticks, PerClient.Ticks * clients));

    public static TimeSpan Next(BerthClientOptions options, TimeSpan window) =>
        TimeSpan.FromTicks(Math.Max(window.Ticks, Math.Min(window.Ticks * 2, options.ReconnectMaxDelay.Ticks)));

    public static TimeSpan Draw(TimeSpan window) => TimeSpan.FromTicks((long)(Random.Shared.NextDouble() * window.Ticks));
}
