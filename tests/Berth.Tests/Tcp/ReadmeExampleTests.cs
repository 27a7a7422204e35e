using System.Buffers;
using System.Net;
using Berth.Connections;

namespace Berth.Tests.Tcp;

/// <summary>The README's TCP example, kept compiling and true (on an ephemeral port instead of 7000).</summary>
public class ReadmeExampleTests
{
    [Fact]
    public async Task The_readme_echo_server_sends_frames_back()
    {
        await using var server = new BerthServer(new BerthServerOptions { EndPoint = new(IPAddress.Loopback, 0) }, new Echo());
        server.Start();

        using var client = new RawClient(server.EndPoint);
        client.SendFrame("ping"u8);
        Assert.Equal("ping"u8.ToArray(), client.ReceiveFrame());
    }

    private sealed class Echo : ConnectionHandler
    {
        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) => connection.TrySend(body);
    }
}
