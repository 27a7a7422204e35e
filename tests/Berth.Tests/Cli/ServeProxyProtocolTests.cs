using System.Net;
using Berth.Tests.Tcp;
using static Berth.Tests.Proxy.SpecHeaders;

namespace Berth.Tests.Cli;

/// <summary><c>berth serve --proxy-protocol</c> as its own process: a trusted proxy's header is read, a spoofed one refused.</summary>
public sealed class ServeProxyProtocolTests
{
    [Fact]
    public async Task ServeReadsTheHeaderOfATrustedProxyAndRefusesOneFromElsewhere()
    {
        await using var serve = new BerthProcess("serve", "--port", "0", "--proxy-protocol", "--trusted-proxy", "127.0.0.1/32", "--trusted-proxy", "2001:db8::/32");
        var port = await ServeSignalTests.ListeningPortAsync(serve);
        var server = new IPEndPoint(IPAddress.Loopback, port);
        using (var proxied = new RawClient(server, preamble: V1("PROXY TCP4 198.51.100.4 10.0.0.1 5000 7000\r\n"), from: IPAddress.Loopback))
        {
            proxied.SendFrame("ping"u8);
            Assert.Equal("ping"u8.ToArray(), proxied.ReceiveFrame());
        }

        using (var direct = new RawClient(server, from: IPAddress.Parse("127.0.0.2")))
        {
            direct.SendFrame("pong"u8);
            Assert.Equal("pong"u8.ToArray(), direct.ReceiveFrame());
        }

        using var spoofer = new RawClient(server, preamble: V1("PROXY TCP4 10.1.1.1 10.0.0.1 5000 7000\r\n"), from: IPAddress.Parse("127.0.0.2"));
        Assert.True(spoofer.WaitForClose());

        await serve.SignalAsync("TERM");
        Assert.True(await serve.ExitedAsync() == 0, await serve.Error);
        Assert.Contains("stopped; pooled buffers outstanding: 0", serve.Output);
    }
}
