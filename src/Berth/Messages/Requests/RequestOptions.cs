namespace Berth.Messages.Requests;

/// <summary>The bounds of request/response on one connection, set on <see cref="Connections.ConnectionOptions.Requests"/>.</summary>
public sealed class RequestOptions
{
    /// <summary>
    /// How long a request waits for its reply unless the call names its own timeout; then it fails with
    /// <see cref="TimeoutException"/> and a reply that comes later is discarded and counted. Default 30 seconds;
    /// <see cref="Timeout.InfiniteTimeSpan"/> waits until the reply, the cancellation or the close.
    /// </summary>
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Requests one connection may await at once; one more fails at once with <see cref="RequestLimitReachedException"/>.
    /// Default 1,024.
    /// </summary>
    public int MaxOutstanding { get; set; } = 1024;

    /// <summary>
    /// Asynchronous request handlers one connection may have running at once; at the bound the connection's receive
    /// pauses until one finishes, so TCP flow control slows the peer down. Default 64.
    /// </summary>
    public int MaxInFlightHandlers { get; set; } = 64;

    internal void Validate()
    {
        if (Timeout != System.Threading.Timeout.InfiniteTimeSpan)
        {
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(Timeout, TimeSpan.Zero, nameof(Timeout));
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(MaxOutstanding, 1, nameof(MaxOutstanding));
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxInFlightHandlers, 1, nameof(MaxInFlightHandlers));
    }
}
