using Berth.Connections;

namespace Berth.Tests.Tcp;

/// <summary>A connection holds pooled memory only while data is in flight: idle ones hold none, on either side.</summary>
public sealed class IdleMemoryTests
{
    [Fact]
    public async Task IdleConnectionsHoldNoPooledBuffersAfterARoundTrip()
    {
        const int count = 200;
        var options = new BerthServerOptions();
        await using (var server = EchoTests.Start(options))
        {
            var clients = new List<RawClient>(count);
            try
            {
                for (var i = 0; i < count; i++)
                {
                    clients.Add(new RawClient(server.EndPoint));
                }

                for (var i = 0; i < count; i++)
                {
                    var body = EchoTests.RandomBody(100_000 + i, i);
                    clients[i].SendFrame(body);
                    Assert.Equal(body, clients[i].ReceiveFrame());
                }

                await Waits.Until(() => server.ConnectionCount == count);
                await Waits.Until(() => options.BufferPool.Outstanding == 0);
                Assert.True(options.BufferPool.TotalRented >= 2 * count);
            }
            finally
            {
                clients.ForEach(c => c.Dispose());
            }
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task AnIdleClientConnectionHoldsNoPooledBuffers()
    {
        var handler = new RecordingHandler { Echo = false };
        await using var server = EchoTests.Start(new BerthServerOptions());
        var clientOptions = new BerthClientOptions { Port = server.EndPoint.Port };
        await using var client = new BerthClient(clientOptions, handler);
        var connection = await client.ConnectAsync().Within();
        await Waits.Until(() => server.ConnectionCount == 1);
        Assert.Equal(0, clientOptions.BufferPool.Outstanding);
        Assert.Equal(0, server.BufferPool.Outstanding);
        Assert.True(connection.TrySend(new byte[5000]));
        await Waits.Until(() => clientOptions.BufferPool.TotalRented >= 2 && clientOptions.BufferPool.Outstanding == 0);
        // The client rented for its send and for the echo's receive, so the echo is back. The server echoes from its
        // receive ring, so its ring may be all it rented.
        await Waits.Until(() => server.BufferPool.TotalRented >= 1 && server.BufferPool.Outstanding == 0);
    }
}
