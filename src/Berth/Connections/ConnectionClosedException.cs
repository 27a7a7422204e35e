namespace Berth.Connections;

/// <summary>A send was attempted on, or waited on, a connection that closed; the frame was not accepted.</summary>
public sealed class ConnectionClosedException : Exception
{
    /// <summary>Creates the exception with a default message.</summary>
    public ConnectionClosedException()
        : base("The connection is closed.")
    {
    }

    /// <summary>Creates the exception with <paramref name="message"/>.</summary>
    public ConnectionClosedException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with <paramref name="message"/> and its cause.</summary>
    public ConnectionClosedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
