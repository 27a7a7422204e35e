using System.Net;
using System.Net.Sockets;
using Berth.Connections.Transport.Epoll;

namespace Berth.Tests.Tcp;

/// <summary>The epoll transport on its own, over a real loopback connection whose other end is a plain socket.</summary>
public sealed class EpollTransportTests : IDisposable
{
    private readonly Socket _peer;
    private readonly Socket _socket;
    private readonly EpollTransport _transport;

    public EpollTransportTests()
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen();
        _peer = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        _peer.Connect(listener.LocalEndPoint!);
        _socket = listener.Accept();
        _transport = new EpollTransport(_socket, EpollLoopGroup.Next());
    }

    [Fact]
    public async Task AnEmptyReceiveWaitsUntilReadableAndConsumesNothing()
    {
        var waiting = _transport.ReceiveAsync(Memory<byte>.Empty);
        _peer.Send([1, 2, 3]);
        Assert.Equal(0, await waiting.AsTask().Within());

        var buffer = new byte[8];
        Assert.Equal(3, await _transport.ReceiveAsync(buffer).AsTask().Within());
        Assert.Equal(new byte[] { 1, 2, 3 }, buffer[..3]);
    }

    [Fact]
    public async Task AWaitingReceiveSeesThePeerClose()
    {
        var waiting = _transport.ReceiveAsync(new byte[8]);
        _peer.Shutdown(SocketShutdown.Send);
        Assert.Equal(0, await waiting.AsTask().Within());
    }

    [Fact]
    public async Task ASendLargerThanTheSocketBuffersCompletesOnceThePeerReadsAndArrivesIntact()
    {
        var parts = Enumerable.Range(0, 5).Select(i => EchoTests.RandomBody(3_000_000 + i, i)).ToArray();
        var segments = parts.Select((p, i) => new ArraySegment<byte>(p, i, p.Length - i)).ToList();
        var expected = segments.SelectMany(s => s).ToArray();

        var sending = _transport.SendAsync(segments).AsTask();
        var received = await Task.Run(() => ReceiveExactly(expected.Length)).Within();

        Assert.Equal(expected.Length, await sending.Within());
        Assert.Equal(expected, received);
    }

    [Fact]
    public async Task AbortEndsAWaitingReceiveAndAWaitingSend()
    {
        var receiving = _transport.ReceiveAsync(new byte[8]).AsTask();
        var sending = _transport.SendAsync([new ArraySegment<byte>(new byte[32 * 1024 * 1024])]).AsTask();

        _transport.Abort();

        await Assert.ThrowsAsync<SocketException>(() => receiving.Within());
        await Assert.ThrowsAsync<SocketException>(() => sending.Within());
        _transport.Dispose();
        Assert.True(_socket.SafeHandle.IsClosed);
    }

    [Fact]
    public async Task AfterAnAbortDataThePeerKeepsSendingIsNotReceived()
    {
        _transport.Abort();
        _peer.Send(new byte[1000]);
        var error = await Assert.ThrowsAsync<SocketException>(() => _transport.ReceiveAsync(new byte[8]).AsTask().Within());
        Assert.Equal(SocketError.OperationAborted, error.SocketErrorCode);
    }

    [Fact]
    public async Task ASendToAResetPeerFailsWithTheSocketError()
    {
        _peer.LingerState = new LingerOption(true, 0);
        _peer.Close();
        var error = await Assert.ThrowsAsync<SocketException>(async () =>
        {
            for (var i = 0; i < 100; i++)
            {
                await _transport.SendAsync([new ArraySegment<byte>(new byte[1024])]).AsTask().Within();
                await Task.Delay(10);
            }
        });
        Assert.Contains(error.SocketErrorCode, new[] { SocketError.ConnectionReset, SocketError.Shutdown });
    }

    public void Dispose()
    {
        _transport.Dispose();
        _peer.Dispose();
    }

    private byte[] ReceiveExactly(int length)
    {
        var received = new byte[length];
        var at = 0;
        while (at < length)
        {
            var n = _peer.Receive(received.AsSpan(at));
            Assert.NotEqual(0, n);
            at += n;
        }

        return received;
    }
}
