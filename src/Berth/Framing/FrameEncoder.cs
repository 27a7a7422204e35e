using System.Buffers;
using System.Runtime.CompilerServices;
using Berth.Buffers;

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
        ArgumentNullException.ThrowIfNull(output);
        var frameLength = CheckedFrameLength(body.Length);
        body.CopyTo(HeaderThenBody(output.GetSpan(frameLength), body.Length));
        output.Advance(frameLength);
    }

    /// <summary>Writes a frame carrying <paramref name="body"/>, which may span several segments.</summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// The body is shorter than the format's <see cref="LengthFieldFormat.MinBodyLength"/> or longer than its
    /// <see cref="LengthFieldFormat.MaxBodyLength"/>; nothing is written.
    /// </exception>
    public void WriteFrame(IBufferWriter<byte> output, in ReadOnlySequence<byte> body)
    {
        ArgumentNullException.ThrowIfNull(output);
        var frameLength = CheckedFrameLength(body.Length);
        body.CopyTo(HeaderThenBody(output.GetSpan(frameLength), frameLength - Format.HeaderLength));
        output.Advance(frameLength);
    }

    // The send queue's overloads: the same steps on the sealed writer type, so GetSpan and Advance are direct calls
    // the compiler can inline. Through the interface only the JIT's profile-guided devirtualization makes them so;
    // a NativeAOT build, which has no profile, otherwise dispatches both through the interface for every frame.
    internal void WriteFrame(PooledBufferWriter output, ReadOnlySpan<byte> body)
    {
        var frameLength = CheckedFrameLength(body.Length);
        body.CopyTo(HeaderThenBody(output.GetSpan(frameLength), body.Length));
        output.Advance(frameLength);
    }

    internal void WriteFrame(PooledBufferWriter output, in ReadOnlySequence<byte> body)
    {
        var frameLength = CheckedFrameLength(body.Length);
        body.CopyTo(HeaderThenBody(output.GetSpan(frameLength), frameLength - Format.HeaderLength));
        output.Advance(frameLength);
    }

    /// <summary>The whole frame's length, once the body's length is checked against the format.</summary>
    // This and HeaderThenBody run once per sent frame; a NativeAOT build, having no profile, inlines them only if told.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int CheckedFrameLength(long bodyLength)
    {
        Format.CheckBodyLength(bodyLength, "body");
        return FrameLength((int)bodyLength);
    }

    /// <summary>Writes the header at the start of <paramref name="frame"/> and returns the room for the body.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> HeaderThenBody(Span<byte> frame, int bodyLength)
    {
        Format.WriteHeader(frame, bodyLength);
        return frame.Slice(Format.HeaderLength, bodyLength);
    }
}
