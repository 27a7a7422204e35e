using Berth.Connections;

namespace Berth.Tests.Tcp;

/// <summary>Clients made from one options object share its pool and one timeout sweeper.</summary>
public sealed class SharedClientOptionsTests
{
    [Fact]
    public async Task EveryClientOfOneOptionsObjectIsSweptAndOneLeavingKeepsTheOthersSwept()
    {
        await using var server = EchoTests.Start(new BerthServerOptions(), new RecordingHandler { Echo = false });
        var options = new BerthClientOptions { Port = server.EndPoint.Port, IdleTimeout = TimeSpan.FromMilliseconds(300) };
        var leaving = new BerthClient(options, new RecordingHandler());
        var firstHandler = new RecordingHandler();
        var secondHandler = new RecordingHandler();
        await using var first = new BerthClient(options, firstHandler);
        await using var second = new BerthClient(options, secondHandler);
        await leaving.DisposeAsync();

        await first.ConnectAsync();
        await second.ConnectAsync();

        await Waits.Until(() => !firstHandler.Disconnects.IsEmpty && !secondHandler.Disconnects.IsEmpty);
        Assert.Equal(DisconnectReason.IdleTimeout, firstHandler.Disconnects.Single().Info.Reason);
        Assert.Equal(DisconnectReason.IdleTimeout, secondHandler.Disconnects.Single().Info.Reason);
        Assert.Same(first.BufferPool, second.BufferPool);
    }
}
