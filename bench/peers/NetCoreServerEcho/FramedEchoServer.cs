using System.Net;
using NetCoreServer;

namespace Berth.NetCoreServerEcho;

/// <summary>A NetCoreServer TCP server whose sessions echo frames.</summary>
internal sealed class FramedEchoServer(IPAddress address, int port) : TcpServer(address, port)
{
    protected override TcpSession CreateSession() => new FramedEchoSession(this);
}
