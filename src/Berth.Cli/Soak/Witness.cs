using System.Buffers.Binary;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Berth.Cli.Load;
using HdrHistogram;

namespace Berth.Cli.Soak;

/// <summary>
/// A well-behaved client that keeps echoing frames of varied size with content derived from their sequence number,
/// and checks every byte that comes back. A frame whose echo does not arrive in time, or a dropped connection, counts
/// as lost (the witness then reconnects); a byte that differs counts as corrupted.
/// </summary>
internal sealed class Witness(IPEndPoint server, int maxFrame)
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(10);

    private readonly byte[] _outgoing = new byte[4 + Math.Min(maxFrame, 8192)];
    private readonly byte[] _incoming = new byte[4 + Math.Min(maxFrame, 8192)];
    private readonly Lock _gate = new();
    private LongHistogram _second = LatencyRecording.Create();
    private long _frames;
    private long _lost;
    private long _corrupted;

    public long Frames => Interlocked.Read(ref _frames);

    public long Lost => Interlocked.Read(ref _lost);

    public long Corrupted => Interlocked.Read(ref _corrupted);

    /// <summary>The 99th percentile round trip of the frames echoed since the last call, in microseconds.</summary>
    public double TakeSecondP99Microseconds()
    {
        LongHistogram second;
        lock (_gate)
        {
            (second, _second) = (_second, LatencyRecording.Create());
        }

        return second.TotalCount == 0 ? 0 : second.GetValueAtPercentile(99) / 1000.0;
    }

    public async Task RunAsync(CancellationToken stop)
    {
        var sequence = 0u;
        while (!stop.IsCancellationRequested)
        {
            using var socket = new Socket(server.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            try
            {
                await socket.ConnectAsync(server, stop);
                while (!stop.IsCancellationRequested)
                {
                    await EchoOneAsync(socket, sequence++, stop);
                    await Task.Delay(2, stop);
                }
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e) when (e is SocketException or OperationCanceledException or EndOfStreamException)
            {
                Interlocked.Increment(ref _lost);
            }
        }
    }

    private async Task EchoOneAsync(Socket socket, uint sequence, CancellationToken stop)
    {
        var size = Size(sequence);
        BinaryPrimitives.WriteUInt32LittleEndian(_outgoing, (uint)size);
        Fill(_outgoing.AsSpan(4, size), sequence);
        var started = Stopwatch.GetTimestamp();
        using var patience = CancellationTokenSource.CreateLinkedTokenSource(stop);
        patience.CancelAfter(Patience);
        await socket.SendAsync(_outgoing.AsMemory(0, 4 + size), SocketFlags.None, patience.Token);
        await ReceiveExactlyAsync(socket, _incoming.AsMemory(0, 4 + size), patience.Token);
        var elapsed = Stopwatch.GetElapsedTime(started);
        if (!_incoming.AsSpan(0, 4 + size).SequenceEqual(_outgoing.AsSpan(0, 4 + size)))
        {
            Interlocked.Increment(ref _corrupted);
            throw new EndOfStreamException("the echo differs from the frame sent");
        }

        Interlocked.Increment(ref _frames);
        lock (_gate)
        {
            _second.Record((long)elapsed.TotalNanoseconds);
        }
    }

    /// <summary>Sizes cycle through 1 byte, small, and up to the largest the witness buffers hold.</summary>
    private int Size(uint sequence) => (sequence % 7) switch
    {
        0 => 1,
        1 => (int)(sequence % 64),
        _ => (int)(sequence * 2654435761u % (uint)(_outgoing.Length - 4)),
    };

    private static void Fill(Span<byte> body, uint sequence)
    {
        var state = sequence * 0x9E3779B9u + 1;
        foreach (ref var b in body)
        {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            b = (byte)state;
        }
    }

    private static async Task ReceiveExactlyAsync(Socket socket, Memory<byte> destination, CancellationToken token)
    {
        while (!destination.IsEmpty)
        {
            var received = await socket.ReceiveAsync(destination, SocketFlags.None, token);
            if (received == 0)
            {
                throw new EndOfStreamException("the server closed the witness's connection");
            }

            destination = destination[received..];
        }
    }
}
