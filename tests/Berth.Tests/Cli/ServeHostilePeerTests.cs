using System.Net;
using Berth.Tests.Tcp;

namespace Berth.Tests.Cli;

/// <summary>
/// <c>berth serve</c> as its own process against a hostile peer; scripts/test.sh also runs it against the NativeAOT
/// binary (<see cref="BerthProcess.ExecutableVariable"/>), where the frame limits are the same compiled code.
/// </summary>
public sealed class ServeHostilePeerTests
{
    [Fact]
    public async Task AFrameLengthOverTheLimitClosesOnlyItsSenderWhileAWitnessKeepsEchoing()
    {
        await using var serve = new BerthProcess("serve", "--port", "0");
        var server = new IPEndPoint(IPAddress.Loopback, await ServeSignalTests.ListeningPortAsync(serve));
        using var witness = new RawClient(server);
        witness.SendFrame("before"u8);
        Assert.Equal("before"u8.ToArray(), witness.ReceiveFrame());

        using var offender = new RawClient(server);
        offender.Send([0xFF, 0xFF, 0xFF, 0xFF]);
        witness.SendFrame("during"u8);
        Assert.Equal("during"u8.ToArray(), witness.ReceiveFrame());
        Assert.True(offender.WaitForClose());
        witness.SendFrame("after"u8);
        Assert.Equal("after"u8.ToArray(), witness.ReceiveFrame());

        await serve.SignalAsync("TERM");
        Assert.True(await serve.ExitedAsync() == 0, await serve.Error);
        Assert.Contains("stopped; pooled buffers outstanding: 0", serve.Output);
    }
}
