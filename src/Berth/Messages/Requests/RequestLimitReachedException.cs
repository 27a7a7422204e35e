namespace Berth.Messages.Requests;

/// <summary>
/// A request was refused before it was sent: its connection already awaits <see cref="RequestOptions.MaxOutstanding"/>
/// replies. Nothing was sent; retry once a reply came in.
/// </summary>
public sealed class RequestLimitReachedException : Exception
{
    /// <summary>Creates the exception with a default message.</summary>
    public RequestLimitReachedException()
        : base("The connection already awaits as many replies as it may.")
    {
    }

    /// <summary>Creates the exception with <paramref name="message"/>.</summary>
    public RequestLimitReachedException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with <paramref name="message"/> and its cause.</summary>
    public RequestLimitReachedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
