using Berth.Connections;
using Microsoft.Extensions.Hosting;

namespace Berth.Hosting;

/// <summary>Starts the <see cref="BerthServer"/> with the host and stops it gracefully when the host stops.</summary>
internal sealed class BerthServerService(BerthServer server) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        server.Start();
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => server.StopAsync(cancellationToken);
}
