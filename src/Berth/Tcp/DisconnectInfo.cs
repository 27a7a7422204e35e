namespace Berth.Tcp;

/// <summary>How a connection ended, and what it could not deliver.</summary>
/// <param name="Reason">Why the connection ended.</param>
/// <param name="UnsentFrames">Frames accepted by a send call that were never written to the socket.</param>
/// <param name="UnsentBytes">Bytes (headers included) of those frames.</param>
/// <param name="Error">The exception behind the reason, when there was one.</param>
public readonly record struct DisconnectInfo(DisconnectReason Reason, long UnsentFrames, long UnsentBytes, Exception? Error);
