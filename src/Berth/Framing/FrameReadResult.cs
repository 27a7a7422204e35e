namespace Berth.Framing;

/// <summary>What <see cref="FrameDecoder.TryReadFrame"/> found at the start of the buffer.</summary>
public enum FrameReadResult
{
    /// <summary>A whole frame: its body was returned and the buffer now starts after it.</summary>
    Frame,

    /// <summary>The buffer holds only part of a frame; read more and try again.</summary>
    Incomplete,

    /// <summary>The peer announced a body longer than the format's maximum; the stream cannot be trusted further.</summary>
    TooLarge,

    /// <summary>
    /// The announced length is impossible (shorter than the header it counts, or a body shorter than the format's
    /// minimum); the stream is garbage.
    /// </summary>
    Malformed,
}
