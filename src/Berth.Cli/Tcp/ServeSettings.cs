using System.Net;
using Berth.Proxy;
using Berth.Connections;

namespace Berth.Cli.Tcp;

/// <summary>What <c>berth serve</c> was asked for, checked and resolved.</summary>
internal sealed record ServeSettings(IPEndPoint EndPoint, int MaxFrame, int MaxConnections, TimeSpan? IdleTimeout, TimeSpan? FrameTimeout, TimeSpan? SlowConsumerTimeout, TimeSpan ShutdownTimeout, HandlerScheduling Scheduling, ProxyProtocolOptions? ProxyProtocol, string? UnixSocketPath, IPEndPoint? HealthEndPoint, TimeSpan DrainDelay, bool LogConnections, bool Typed);
