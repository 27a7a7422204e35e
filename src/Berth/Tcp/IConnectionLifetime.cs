namespace Berth.Tcp;

/// <summary>
/// All the receive and send paths may ask of the connection they serve: whether it is closing, to close it, and to
/// hear that a loop ended. Everything else they work with is passed to them when the connection starts.
/// </summary>
internal interface IConnectionLifetime
{
    /// <summary>True once a close started; sends are refused from then on.</summary>
    bool IsClosing { get; }

    /// <summary>Whether the close under way writes what is queued before shutting the send side down.</summary>
    bool FlushOnClose { get; }

    /// <summary>Starts closing for <paramref name="reason"/> unless a close started already; the first reason wins.</summary>
    bool Close(DisconnectReason reason, Exception? error, bool flush);

    /// <summary>Closes for bad input: the replies already queued go out first, all within the linger time.</summary>
    void CloseForBadInput(DisconnectReason reason);

    /// <summary>The handler threw: logs it and aborts the connection.</summary>
    void CloseForHandlerFailure(Exception error);

    /// <summary>Aborts the transport once the linger time has passed, unless the connection closed before.</summary>
    void AbortAfterLinger();

    /// <summary>A loop exited; the last one releases everything and reports the disconnect.</summary>
    void LoopEnded();
}
