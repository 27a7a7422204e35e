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
    /// <exception cref="ArgumentOutOfRangeException">
    /// The body is shorter than the format's <see cref="LengthFieldFormat.MinBodyLength"/> or longer than its
    /// <see cref="LengthFieldFormat.MaxBodyLength"/>; nothing is written.
    /// </exception>
    public void WriteFrame(IBufferWriter<byte> output, ReadOnlySpan<byte> body)
    {
        body.CopyTo(BeginFrame(output, body.Length));
        output.Advance(FrameLength(body.Length));
    }

    /// <summary>Writes a frame carrying <paramref name="body"/>, which may span several segments.</summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// The body is shorter than the format's <see cref="LengthFieldFormat.MinBodyLength"/> or longer than its
    /// <see cref="LengthFieldFormat.MaxBodyLength"/>; nothing is written.
    /// </exception>
    public void WriteFrame(IBufferWriter<byte> output, in ReadOnlySequence<byte> body)
    {
        Format.CheckBodyLength(body.Length, nameof(body));
        var bodyLength = (int)body.Length;
        body.CopyTo(BeginFrame(output, bodyLength));
        output.Advance(FrameLength(bodyLength));
    }

    /// <summary>Writes the header into <paramref name="output"/>'s memory and returns the room for the body.</summary>
    private Span<byte> BeginFrame(IBufferWriter<byte> output, int bodyLength)
    {
        ArgumentNullException.ThrowIfNull(output);
        Format.CheckBodyLength(bodyLength, "body");
        var frame = output.GetSpan(FrameLength(bodyLength));
        Format.WriteHeader(frame, bodyLength);
        return frame.Slice(Format.HeaderLength, bodyLength);
    }
}
