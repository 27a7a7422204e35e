using Berth.Cli.Balancer;

namespace Berth.Balancer.Tests;

/// <summary>
/// The real haproxy fronting two <c>berth serve</c> processes, as <c>berth rolling-restart</c> runs them: PROXY v2
/// from 127.0.0.1 only, a TCP check of each health port, redispatch. Everything is killed on dispose.
/// </summary>
internal sealed class BalancedBackends : IAsyncDisposable
{
    private BalancedBackends(Backend a, Backend b, HaproxyProcess haproxy)
    {
        A = a;
        B = b;
        Haproxy = haproxy;
    }

    public Backend A { get; }

    public Backend B { get; }

    public HaproxyProcess Haproxy { get; }

    public static async Task<BalancedBackends> StartAsync(TimeSpan drainDelay)
    {
        var a = await Backend.StartAsync("a", drainDelay);
        var b = await Backend.StartAsync("b", drainDelay);
        return new BalancedBackends(a, b, await HaproxyProcess.StartAsync([a, b]));
    }

    public async ValueTask DisposeAsync()
    {
        await Haproxy.DisposeAsync();
        await A.DisposeAsync();
        await B.DisposeAsync();
    }
}
