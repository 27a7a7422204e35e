namespace Berth.Connections;

/// <summary>Which threads run a connection's <see cref="ConnectionHandler"/> and its sends.</summary>
public enum HandlerScheduling
{
    /// <summary>
    /// On Linux, over plain TCP, each connection belongs to one of Berth's event-loop threads (one per core). The
    /// thread that sees the socket readable runs the receive, the frame decoding, the handler and the send of the
    /// replies, with no hop through the thread pool. A handler must therefore not block: while it waits, every other
    /// connection of its loop waits too. Over TLS and on other systems this falls back to
    /// <see cref="ThreadPool"/>.
    /// </summary>
    Inline,

    /// <summary>
    /// The runtime's socket engine completes each receive on a thread-pool thread, which then runs the handler. Costs
    /// a thread hop per receive; choose it for handlers that block (synchronous I/O, locks held long, waits), since a
    /// blocked handler then stalls only its own connection.
    /// </summary>
    ThreadPool,
}
