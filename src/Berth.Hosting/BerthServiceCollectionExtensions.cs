using System.Diagnostics.CodeAnalysis;
using System.Diagnostics.Metrics;
using Berth.Connections;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Berth.Hosting;

/// <summary>Registers a Berth TCP server with the Generic Host.</summary>
public static class BerthServiceCollectionExtensions
{
    /// <summary>
    /// Adds a <see cref="BerthServer"/> that runs <typeparamref name="THandler"/> (resolved from the container), starts
    /// with the host and stops gracefully with it. The server is also registered, so it can be injected (for
    /// <see cref="BerthServer.EndPoint"/> or <see cref="BerthServer.Connections"/>). Logging uses the host's
    /// <see cref="ILoggerFactory"/> and metrics its <see cref="IMeterFactory"/> (when registered) unless
    /// <paramref name="configure"/> sets others.
    /// </summary>
    public static IServiceCollection AddBerthServer<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] THandler>(this IServiceCollection services, Action<BerthServerOptions>? configure = null)
        where THandler : ConnectionHandler
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddSingleton<THandler>();
        services.AddSingleton(provider =>
        {
            var options = new BerthServerOptions();
            if (provider.GetService<ILoggerFactory>() is { } loggerFactory)
            {
                options.LoggerFactory = loggerFactory;
            }

            options.MeterFactory = provider.GetService<IMeterFactory>();

            configure?.Invoke(options);
            return new BerthServer(options, provider.GetRequiredService<THandler>());
        });
        services.AddSingleton<IHostedService, BerthServerService>();
        return services;
    }
}
