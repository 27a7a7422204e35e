using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using Berth.Cli.Compare;

namespace Berth.Tests.Cli;

/// <summary>
/// The C epoll echo the comparison divides by, both builds (level-triggered, and edge-triggered draining), on real
/// loopback sockets: every whole frame back byte for byte whatever the read boundaries, replies larger than the
/// socket buffers finished through EPOLLOUT, and an oversized frame closing only its own connection.
/// </summary>
public sealed class CEchoTests
{
    private const int MaxBody = 1 << 20;

    [Theory]
    [InlineData("berth-echo")]
    [InlineData("berth-echo-drain")]
    [InlineData("berth-echo-spin")]
    public async Task EchoesWholeFramesAndClosesOnlyTheOversizedConnection(string program)
    {
        var build = new HarnessBuild(SourceCheckout.FindRoot());
        await build.BuildNativeAsync(CancellationToken.None);
        var path = Path.Combine(Path.GetDirectoryName(build.EchoServer)!, program);
        await using var server = await ServerProcess.StartAsync(new EchoServerCommand(program, path, ["--threads", "2"]), CancellationToken.None);
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));

        using var steady = await ConnectAsync(server.Port);
        using var hostile = await ConnectAsync(server.Port);

        // Frames split at every awkward boundary: inside a length prefix, inside a body, several in one write.
        var frames = new[] { Frame(0, 1), Frame(1, 2), Frame(64, 3), Frame(5000, 4), Frame(3, 5) }.SelectMany(f => f).ToArray();
        for (var at = 0; at < frames.Length;)
        {
            var piece = Math.Min(frames.Length - at, at % 7 + 2);
            await steady.SendAsync(frames.AsMemory(at, piece), timeout.Token);
            at += piece;
        }

        Assert.Equal(frames, await ReceiveAsync(steady, frames.Length, timeout.Token));

        // Three 1 MiB frames sent before reading anything: the replies outgrow the socket buffers, so sends are cut
        // short and finish only once the peer reads.
        var large = Enumerable.Range(0, 3).SelectMany(i => Frame(MaxBody, (byte)(10 + i))).ToArray();
        var sending = steady.SendAsync(large, timeout.Token).AsTask();
        var echoed = await ReceiveAsync(steady, large.Length, timeout.Token);
        await sending;
        Assert.Equal(large, echoed);

        var oversized = new byte[8];
        BinaryPrimitives.WriteUInt32LittleEndian(oversized, MaxBody + 1);
        await hostile.SendAsync(oversized, timeout.Token);
        Assert.Equal(0, await hostile.ReceiveAsync(new byte[16], timeout.Token));

        // The witness: the other connection still echoes after the offender was closed.
        var after = Frame(10, 42);
        await steady.SendAsync(after, timeout.Token);
        Assert.Equal(after, await ReceiveAsync(steady, after.Length, timeout.Token));
    }

    private static async Task<Socket> ConnectAsync(int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port));
        return socket;
    }

    private static byte[] Frame(int bodyLength, byte seed)
    {
        var frame = new byte[4 + bodyLength];
        BinaryPrimitives.WriteUInt32LittleEndian(frame, (uint)bodyLength);
        for (var i = 0; i < bodyLength; i++)
        {
            frame[4 + i] = (byte)(seed + i);
        }

        return frame;
    }

    private static async Task<byte[]> ReceiveAsync(Socket socket, int length, CancellationToken cancellationToken)
    {
        var received = new byte[length];
        for (var at = 0; at < length;)
        {
            var read = await socket.ReceiveAsync(received.AsMemory(at), cancellationToken);
            Assert.NotEqual(0, read);
            at += read;
        }

        return received;
    }
}
