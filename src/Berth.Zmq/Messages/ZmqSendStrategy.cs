namespace Berth.Zmq;

/// <summary>How <see cref="ZmqSocket.Send(ReadOnlySpan{byte}, bool)"/> hands bytes to libzmq, chosen by size.</summary>
public static class ZmqSendStrategy
{
    /// <summary>
    /// Spans shorter than this are copied by <c>zmq_send</c>; longer ones are copied once into a pooled array that
    /// libzmq sends without copying again. The value is the measured break-even (docs/decisions/zmq-send-strategy.md).
    /// </summary>
    public const int DefaultZeroCopyThreshold = 131072;
}
