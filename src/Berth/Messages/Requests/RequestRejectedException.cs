namespace Berth.Messages.Requests;

/// <summary>
/// A request handler's refusal, carried back to the caller as an error reply. A handler throws it (synchronously or from
/// its <see cref="ValueTask{TResult}"/>) to fail the request without closing the connection; the caller's
/// <see cref="MessageRequests.RequestAsync{TRequest, TReply}(Connections.Connection, in TRequest, CancellationToken)"/>
/// then throws it with the same <see cref="Code"/> and message. Any other exception from a handler closes the connection.
/// </summary>
public sealed class RequestRejectedException : Exception
{
    /// <summary>Longest message, in characters, that an error reply carries; a longer one is cut.</summary>
    public const int MaxMessageLength = 1024;

    /// <summary>Creates a refusal with the application's <paramref name="code"/> and <paramref name="message"/>.</summary>
    public RequestRejectedException(int code, string message)
        : base(message) => Code = code;

    /// <summary>Creates a refusal with code 0 and a default message.</summary>
    public RequestRejectedException()
        : base("The request was rejected.")
    {
    }

    /// <summary>Creates a refusal with code 0 and <paramref name="message"/>.</summary>
    public RequestRejectedException(string message)
        : base(message)
    {
    }

    /// <summary>Creates a refusal with code 0, <paramref name="message"/> and its cause, which stays on this side.</summary>
    public RequestRejectedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>The application's error code, as the handler gave it.</summary>
    public int Code { get; }
}
