namespace Berth.Connections;

/// <summary>A send found the connection's send queue full under <see cref="FullQueuePolicy.Reject"/>.</summary>
public sealed class SendQueueFullException : Exception
{
    /// <summary>Creates the exception with a default message.</summary>
    public SendQueueFullException()
        : base("The connection's send queue is full.")
    {
    }

    /// <summary>Creates the exception with <paramref name="message"/>.</summary>
    public SendQueueFullException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with <paramref name="message"/> and its cause.</summary>
    public SendQueueFullException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
