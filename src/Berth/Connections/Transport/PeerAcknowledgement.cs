using System.Net.Sockets;

namespace Berth.Connections.Transport;

/// <summary>
/// How much of what a plain TCP socket sent the peer has acknowledged, read from Linux's <c>tcp_info</c>
/// (<c>tcpi_bytes_acked</c>) when a connection is aborted. The kernel gives the acknowledged offset itself, so a
/// send cut off midway needs no bookkeeping of how much of it the kernel had taken. The socket is then set to
/// reset on close, so the bytes the peer had not acknowledged are discarded instead of delivered after they were
/// reported unsent.
/// </summary>
internal struct PeerAcknowledgement
{
    /// <summary>Returned when the platform or the socket cannot tell.</summary>
    public const long Unknown = -1;

    private const int TcpLevel = 6;
    private const int TcpInfo = 11;
    private const int BytesAckedOffset = 120;
    private const int TcpInfoLength = 232;

    private long _atAbort;
    private int _read;

    public PeerAcknowledgement()
    {
        _atAbort = Unknown;
    }

    /// <summary>What <see cref="ReadOnce"/> read, or <see cref="Unknown"/>.</summary>
    public readonly long AtAbort => Volatile.Read(in _atAbort);

    /// <summary>Reads the acknowledged bytes on the first call (a later abort finds the socket closed already).</summary>
    public void ReadOnce(Socket socket, bool activeOpen)
    {
        if (Interlocked.Exchange(ref _read, 1) == 0)
        {
            Volatile.Write(ref _atAbort, ReadAndDiscardTheRest(socket, activeOpen));
        }
    }

    /// <summary>
    /// Bytes of the stream the peer acknowledged so far, or <see cref="Unknown"/>. On an active open the kernel counts
    /// the acknowledgement of the SYN as one byte; subtracting it where a kernel did not count it errs towards
    /// counting one more frame unsent, never one fewer.
    /// </summary>
    public static long Read(Socket socket, bool activeOpen)
    {
        if (!OperatingSystem.IsLinux())
        {
            return Unknown;
        }

        try
        {
            Span<byte> info = stackalloc byte[TcpInfoLength];
            if (socket.GetRawSocketOption(TcpLevel, TcpInfo, info) < BytesAckedOffset + sizeof(long))
            {
                return Unknown;
            }

            return Math.Max(BitConverter.ToInt64(info[BytesAckedOffset..]) - (activeOpen ? 1 : 0), 0);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            return Unknown;
        }
    }

    /// <summary>What the peer acknowledged, after which the socket resets on close instead of delivering the rest.</summary>
    private static long ReadAndDiscardTheRest(Socket socket, bool activeOpen)
    {
        var acknowledged = Read(socket, activeOpen);
        if (acknowledged != Unknown)
        {
            try
            {
                socket.LingerState = new LingerOption(true, 0);
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException)
            {
                return Unknown;
            }
        }

        return acknowledged;
    }
}
