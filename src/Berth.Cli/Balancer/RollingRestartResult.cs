namespace Berth.Cli.Balancer;

/// <summary>
/// What a rolling restart showed: the clients' ledgers added up, every reconnection, and what each backend's restart
/// showed. The promise: <c>Sent == Echoed + Failed</c>, nothing unexpected, every client back.
/// </summary>
internal sealed record RollingRestartResult(
    int Clients,
    long Sent,
    long Echoed,
    long Failed,
    long Unexpected,
    long Outstanding,
    int ClientsStillAway,
    IReadOnlyList<Reconnection> Reconnections,
    IReadOnlyList<BackendRestart> Restarts)
{
    public TimeSpan LongestReconnect => Reconnections.Count == 0 ? TimeSpan.Zero : Reconnections.Max(r => r.Took);

    /// <summary>Every frame echoed or reported failed, none twice or out of order, every client back, every backend drained.</summary>
    public bool Held => Sent == Echoed + Failed && Unexpected == 0 && Outstanding == 0 && ClientsStillAway == 0
        && Restarts.All(r => r.MarkedDownBeforeStopping && r.NewConnectionWentToOther && r.ExitCode == 0 && r.BuffersReturned);
}

/// <summary>
/// One backend's restart: whether the balancer marked it down before it stopped accepting, whether a connection opened
/// during its drain went to the other backend, how it exited, and how many clients moved.
/// </summary>
internal sealed record BackendRestart(
    string Backend,
    bool MarkedDownBeforeStopping,
    bool NewConnectionWentToOther,
    int ExitCode,
    bool BuffersReturned,
    int ClientsMoved,
    TimeSpan LongestReconnect);
