using Berth.Tcp;
using Microsoft.Extensions.Hosting;

namespace Berth.Hosting;

/// <summary>Starts the <see cref="TcpServer"/> with the host and stops it gracefully when the host stops.</summary>
internal sealed class BerthServerService(TcpServer server) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        server.Start();
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => server.StopAsync(cancellationToken);
}
