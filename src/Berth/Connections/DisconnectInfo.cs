namespace Berth.Connections;

/// <summary>How a connection ended, and what it could not deliver.</summary>
/// <param name="Reason">Why the connection ended.</param>
/// <param name="UnsentFrames">
/// Frames accepted by a send call that the peer did not receive whole. After a flushing close, those never written to
/// the socket. After an abort (an error, a timeout, a policy close, <see cref="Connection.Abort()"/>) on Linux over plain
/// TCP, also those written but not wholly acknowledged by the peer's TCP, read from the kernel when the connection was
/// aborted; the socket is then reset, so none of them reaches the peer later. A frame the peer acknowledged in the
/// instant of the abort may be counted unsent; none is counted delivered that was not acknowledged. When more than 128
/// frames are unacknowledged, the count starts at a frame boundary kept every 128 KiB, so up to 128 KiB of frames the
/// peer has may be counted too; past 8 MiB of such boundaries, the older frames are counted as if each were as short
/// as the format allows. Too many, never too few. Elsewhere (other systems, and TLS, whose records do not map byte for byte onto
/// frames) a frame written to the socket counts as delivered, and frames lost in the socket's buffers when the link
/// dies are not counted.
/// </param>
/// <param name="UnsentBytes">Bytes (headers included) of those frames.</param>
/// <param name="Error">The exception behind the reason, when there was one.</param>
public readonly record struct DisconnectInfo(DisconnectReason Reason, long UnsentFrames, long UnsentBytes, Exception? Error);
