namespace ZmqBroker;

/// <summary>
/// The first word of each line a child process prints for the orchestrator; the rest of the line is its fields,
/// separated by spaces. Requests and replies on the wire are text too: a request is its id, a reply is
/// "id worker", so the client can tell which request a reply answers and the ledger which worker answered.
/// </summary>
internal static class Protocol
{
    /// <summary>Broker: "endpoints FRONTEND BACKEND".</summary>
    public const string Endpoints = "endpoints";

    /// <summary>Worker: "ready", once its connection to the broker is up.</summary>
    public const string Ready = "ready";

    /// <summary>Worker: "took ID", before it handles the request.</summary>
    public const string Took = "took";

    /// <summary>Worker: "stalled ID", when it stops answering and keeps the request.</summary>
    public const string Stalled = "stalled";

    /// <summary>Client: "answered ID WORKER ATTEMPT", for the one reply it accepts for a request.</summary>
    public const string Answered = "answered";

    /// <summary>Client: "duplicate ID WORKER", for a reply to a request already answered, dropped.</summary>
    public const string Duplicate = "duplicate";

    /// <summary>Client: "timeout ID ATTEMPT", when no reply came in time; the socket is closed and reopened.</summary>
    public const string Timeout = "timeout";

    /// <summary>Client: "abandoned ID", when every attempt timed out.</summary>
    public const string Abandoned = "abandoned";

    /// <summary>The name of the client numbered <paramref name="number"/>, counted from 1.</summary>
    public static string ClientName(int number) => $"c{number}";

    /// <summary>The name of the worker numbered <paramref name="number"/>, counted from 1.</summary>
    public static string WorkerName(int number) => $"worker-{number}";

    /// <summary>The id of a client's request: the client's name and the request's number, counted from 1.</summary>
    public static string RequestId(string client, int number) => $"{client}-{number}";
}
