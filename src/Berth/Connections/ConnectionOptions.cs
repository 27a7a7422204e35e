using System.Buffers;
using System.Diagnostics.Metrics;
using System.Net.Sockets;
using Berth.Buffers;
using Berth.Framing;
using Berth.Messages.Requests;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Berth.Connections;

/// <summary>Settings every connection has, on the server and the client side.</summary>
public class ConnectionOptions
{
    private BufferPool? _bufferPool;

    /// <summary>The frame layout, including the largest body a peer may announce. Default: <see cref="LengthFieldFormat.Berth"/>.</summary>
    public LengthFieldFormat Format { get; set; } = LengthFieldFormat.Berth;

    /// <summary>Most bytes (headers included) a connection queues for sending before sends find it full. Default 1 MiB.</summary>
    public int SendQueueLimit { get; set; } = 1_048_576;

    /// <summary>
    /// What a send from outside the receive loop does when the queue is full. Default <see cref="Connections.FullQueuePolicy.Reject"/>.
    /// Replies sent from <see cref="ConnectionHandler.OnFrame"/> are taken while the queue is under its limit, and the
    /// receive loop pauses while it is over, so the policy only answers senders on other threads.
    /// </summary>
    public FullQueuePolicy FullQueuePolicy { get; set; } = FullQueuePolicy.Reject;

    /// <summary>
    /// How long the receive loop may stay paused for a full send queue with no send completing before the connection
    /// is closed with <see cref="DisconnectReason.SlowConsumer"/>: a peer that stopped reading. Null: never. Default 30 s.
    /// </summary>
    public TimeSpan? SlowConsumerTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Longest time a frame may take to arrive once its first byte did; a slower frame closes the connection with
    /// <see cref="DisconnectReason.FrameTimeout"/>, after the replies to the frames before it were written. Time spent
    /// paused for a full send queue does not count. Null: no limit. Default: no limit.
    /// </summary>
    public TimeSpan? FrameTimeout { get; set; }

    /// <summary>
    /// Size of the receive ring a connection rents when data arrives; it grows for a larger frame and goes back to
    /// the pool whenever it is drained, so an idle connection holds none. Default 64 KiB, so a pipelined burst of
    /// sixteen 1 KiB frames fits one receive.
    /// </summary>
    public int ReceiveBufferSize { get; set; } = 65_536;

    /// <summary>Size of each pooled array the send queue writes frames into. Default 16 KiB.</summary>
    public int SendSegmentSize { get; set; } = 16_384;

    /// <summary>Disables Nagle's algorithm so small frames leave at once. Default true.</summary>
    public bool NoDelay { get; set; } = true;

    /// <summary>Enables TCP keep-alive probes on the socket. Default false.</summary>
    public bool KeepAlive { get; set; }

    /// <summary>A connection that receives nothing for this long is closed with <see cref="DisconnectReason.IdleTimeout"/>. Default: never.</summary>
    public TimeSpan? IdleTimeout { get; set; }

    /// <summary>
    /// How long a closing connection waits for the peer to close after its queued frames were flushed. A close for bad
    /// input (<see cref="DisconnectReason.FrameTooLarge"/>, <see cref="DisconnectReason.MalformedFrame"/>,
    /// <see cref="DisconnectReason.MalformedMessage"/>, <see cref="DisconnectReason.FrameTimeout"/>) is cut off this long after it began, flush included. Default 5 s.
    /// </summary>
    public TimeSpan LingerTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Where receive rings and send buffers come from; its <see cref="BufferPool.Outstanding"/> is 0 once everything is
    /// closed. Default: a <see cref="ReleasingArrayPool"/> of its own for arrays up to 2 MiB that keeps at most 32 MiB
    /// of free arrays per size and releases those unused for 5 seconds, so memory taken by a burst of connections is
    /// given back. <see cref="ArrayPool{T}.Shared"/> keeps only a few arrays per size and core: with many connections
    /// growing their rings at once it misses and allocates (1.5 B per 4 KiB echo, against 0.1 B with a pool of its own).
    /// </summary>
    /// <remarks>The default pool, and its release timer, is made on first use, so options never used make none.</remarks>
    public BufferPool BufferPool
    {
        get => _bufferPool ?? LazyInitializer.EnsureInitialized(
            ref _bufferPool, static () => new(new ReleasingArrayPool(2 * 1024 * 1024, 32 * 1024 * 1024, TimeSpan.FromSeconds(5))));
        set => _bufferPool = value;
    }

    /// <summary>
    /// Which threads run the handler and the sends. Default <see cref="Connections.HandlerScheduling.Inline"/>: on Linux over
    /// plain TCP the handler runs on an event-loop thread and must not block. Choose
    /// <see cref="Connections.HandlerScheduling.ThreadPool"/> for handlers that block.
    /// </summary>
    public HandlerScheduling HandlerScheduling { get; set; } = HandlerScheduling.Inline;

    /// <summary>Loggers for connection events. Default: no logging.</summary>
    public ILoggerFactory LoggerFactory { get; set; } = NullLoggerFactory.Instance;

    /// <summary>
    /// Where the <c>Berth</c> meter and its instruments come from, for example the host's factory, so its listeners
    /// see only these connections. Default null: one process-wide meter named <c>Berth</c>.
    /// </summary>
    public IMeterFactory? MeterFactory { get; set; }

    /// <summary>The timeout and bounds of request/response on each connection.</summary>
    public RequestOptions Requests { get; set; } = new();

    internal void ApplyTo(Socket socket)
    {
        if (socket.AddressFamily == AddressFamily.Unix)
        {
            // Neither Nagle nor keep-alive exists on a Unix domain socket.
            return;
        }

        socket.NoDelay = NoDelay;
        socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.KeepAlive, KeepAlive);
    }

    internal void Validate()
    {
        ArgumentNullException.ThrowIfNull(Format);
        ArgumentNullException.ThrowIfNull(BufferPool);
        ArgumentNullException.ThrowIfNull(LoggerFactory);
        ArgumentNullException.ThrowIfNull(Requests);
        Requests.Validate();
        ArgumentOutOfRangeException.ThrowIfLessThan(SendQueueLimit, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(ReceiveBufferSize, 16);
        ArgumentOutOfRangeException.ThrowIfLessThan(SendSegmentSize, 16);
        if (!Enum.IsDefined(HandlerScheduling))
        {
            throw new ArgumentOutOfRangeException(nameof(HandlerScheduling), HandlerScheduling, "Not a HandlerScheduling value.");
        }

        foreach (var (limit, name) in new[] { (IdleTimeout, nameof(IdleTimeout)), (FrameTimeout, nameof(FrameTimeout)), (SlowConsumerTimeout, nameof(SlowConsumerTimeout)) })
        {
            if (limit is { } value)
            {
                ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(value, TimeSpan.Zero, name);
            }
        }
    }
}
