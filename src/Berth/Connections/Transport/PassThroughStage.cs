using System.Net;
using System.Net.Sockets;

namespace Berth.Connections.Transport;

/// <summary>The pre-framing stage of a stream that starts with its first frame: reads nothing, keeps the socket's address.</summary>
internal sealed class PassThroughStage : IPreFramingStage
{
    public static PassThroughStage Instance { get; } = new();

    public ValueTask<EndPoint?> RunAsync(Socket socket, EndPoint? remoteEndPoint, CancellationToken cancellationToken) =>
        ValueTask.FromResult(remoteEndPoint);
}
