using System.Buffers;
using Berth.Cli.Load;
using Berth.Connections;
using Berth.Tests.Tcp;

namespace Berth.Tests.Cli;

/// <summary><c>berth load</c> checks every echo against the request it answers: a server that changes a byte fails each connection, and the reason names it.</summary>
public sealed class LoadEchoCheckTests
{
    [Fact]
    public async Task AnEchoThatDiffersFromItsRequestFailsTheConnectionAndSaysSo()
    {
        var result = await RunAgainst(new ByteFlippingEcho(), connections: 2);

        Assert.Equal(0, result.Messages);
    }

    [Fact]
    public async Task AnEchoOfAnotherRequestOfTheSameSizeFailsTheConnection() => await RunAgainst(new OneBehindEcho(), connections: 1);

    /// <summary>Runs <c>berth load</c> against <paramref name="echo"/> and asserts that every connection failed, each for the echo's mismatch.</summary>
    private static async Task<LoadResult> RunAgainst(ConnectionHandler echo, int connections)
    {
        await using var server = EchoTests.Start(new BerthServerOptions(), echo);
        var runner = new LoadRunner(new LoadSettings
        {
            Host = "127.0.0.1",
            Port = server.EndPoint.Port,
            Connections = connections,
            Warmup = TimeSpan.Zero,
            Duration = TimeSpan.FromSeconds(0.5),
        });

        var result = await runner.RunAsync(CancellationToken.None).Within();

        Assert.Equal(connections, result.Errors);
        var (reason, count) = Assert.Single(result.ErrorsByReason);
        Assert.Equal(connections, count);
        Assert.Contains("an echo of 64 bytes differs from the 64-byte request it answers", reason);
        return result;
    }

    /// <summary>
    /// Answers each frame with the body of the frame before it (the first with itself): every echo has the right
    /// length and is some request's bytes, but from the second on not the one it answers. One connection only: the
    /// handler keeps one previous body.
    /// </summary>
    private sealed class OneBehindEcho : ConnectionHandler
    {
        private byte[]? _previous;

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            var current = body.ToArray();
            connection.TrySend(_previous ?? current);
            _previous = current;
        }
    }

    /// <summary>Echoes each frame with its first byte inverted: the right length, the wrong bytes.</summary>
    private sealed class ByteFlippingEcho : ConnectionHandler
    {
        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            Span<byte> changed = stackalloc byte[(int)body.Length];
            body.CopyTo(changed);
            changed[0] ^= 0xFF;
            connection.TrySend(changed);
        }
    }
}
