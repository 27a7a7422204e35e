using System.Net;
using Berth.Messages;
using Microsoft.Extensions.Logging;

namespace Berth.Connections;

/// <summary>The transport's log messages, source-generated so a disabled level costs one check.</summary>
internal static partial class ConnectionLog
{
    [LoggerMessage(1, LogLevel.Information, "Listening on {EndPoint}")]
    public static partial void Listening(ILogger logger, EndPoint? endPoint);

    [LoggerMessage(2, LogLevel.Debug, "Connection {Id} from {RemoteEndPoint} opened")]
    public static partial void Opened(ILogger logger, long id, EndPoint? remoteEndPoint);

    [LoggerMessage(3, LogLevel.Debug, "Connection {Id} closed: {Reason}, {UnsentFrames} frames unsent")]
    public static partial void Closed(ILogger logger, long id, DisconnectReason reason, long unsentFrames);

    [LoggerMessage(4, LogLevel.Error, "Connection {Id}: the handler threw; closing this connection")]
    public static partial void HandlerFailed(ILogger logger, long id, Exception exception);

    [LoggerMessage(5, LogLevel.Warning, "Connection {Id} closed: {Reason}")]
    public static partial void ClosedByPolicy(ILogger logger, long id, DisconnectReason reason);

    [LoggerMessage(6, LogLevel.Error, "Accepting connections failed")]
    public static partial void AcceptFailed(ILogger logger, Exception exception);

    [LoggerMessage(7, LogLevel.Warning, "Reconnect to {Host}:{Port} failed (attempt {Attempt}); retrying at a random moment within {Window}")]
    public static partial void ReconnectFailed(ILogger logger, string host, int port, int attempt, TimeSpan window, Exception exception);

    [LoggerMessage(8, LogLevel.Error, "The disconnect handler of connection {Id} threw")]
    public static partial void DisconnectHandlerFailed(ILogger logger, long id, Exception exception);

    [LoggerMessage(9, LogLevel.Information, "Stopped; {Remaining} connections closed hard after the shutdown timeout")]
    public static partial void Stopped(ILogger logger, int remaining);

    [LoggerMessage(10, LogLevel.Warning, "Connection {Id} closed: MalformedMessage, {Field} at offset {Offset}: {Fault}")]
    public static partial void MalformedMessage(ILogger logger, long id, string field, long offset, MessageFault fault);

    [LoggerMessage(11, LogLevel.Information, "Stopping: idle connections closed; {Active} active connections close at their next frame boundary")]
    public static partial void WaitingForFrameBoundaries(ILogger logger, int active);
}
