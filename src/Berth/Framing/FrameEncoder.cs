using System.Buffers;

namespace Berth.Framing;

/// <summary>Writes whole frames (header, then body) into a buffer writer.</summary>
public sealed class FrameEncoder
{
    /// <summary>Creates an encoder for frames in <paramref name="format"/>.</summary>
    public FrameEncoder(LengthFieldFormat format)
    {
        ArgumentNullException.ThrowIfNull(format);
        Format = format;
    }

    /// <summary>The layout this encoder writes.</summary>
    public LengthFieldFormat Format { get; }

    /// <summary>Bytes a frame with a body of <paramref name="bodyLength"/> bytes occupies.</summary>
    public int FrameLength(int bodyLength) => Format.HeaderLength + bodyLength;

    /// <summary>Writes a frame carrying <paramref name="body"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The body is longer than the format's maximum.</exception>
    public void WriteFrame(IBufferWriter<byte> output, ReadOnlySpan<byte> body)
    {
        ArgumentNullException.ThrowIfNull(output);
        var frame = output.GetSpan(FrameLength(body.Length));
        Format.WriteHeader(frame, body.Length);
        body.CopyTo(frame[Format.HeaderLength..]);
        output.Advance(FrameLength(body.Length));
    }

    /// <summary>Writes a frame carrying <paramref name="body"/>, which may span several segments.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The body is longer than the format's maximum.</exception>
    public void WriteFrame(IBufferWriter<byte> output, in ReadOnlySequence<byte> body)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(body.Length, Format.MaxBodyLength, nameof(body));
        var bodyLength = (int)body.Length;
        var frame = output.GetSpan(FrameLength(bodyLength));
        Format.WriteHeader(frame, bodyLength);
        body.CopyTo(frame[Format.HeaderLength..]);
        output.Advance(FrameLength(bodyLength));
    }
}
