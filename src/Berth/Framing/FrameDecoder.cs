using System.Buffers;

namespace Berth.Framing;

/// <summary>
/// Splits length-prefixed frames off the front of received bytes without copying them: the body it returns is a
/// slice of the input, even when it spans several segments.
/// </summary>
public sealed class FrameDecoder
{
    private readonly int _headerLength;
    private readonly uint _lengthBias;
    private readonly uint _maxBodyLength;
    private readonly uint _minBodyLength;

    /// <summary>Creates a decoder for frames in <paramref name="format"/>.</summary>
    public FrameDecoder(LengthFieldFormat format)
    {
        ArgumentNullException.ThrowIfNull(format);
        Format = format;
        _headerLength = format.HeaderLength;
        _lengthBias = format.LengthIncludesHeader ? (uint)format.HeaderLength : 0;
        _maxBodyLength = (uint)format.MaxBodyLength;
        _minBodyLength = (uint)format.MinBodyLength;
    }

    /// <summary>The layout this decoder reads.</summary>
    public LengthFieldFormat Format { get; }

    /// <summary>
    /// Reads one frame from the front of <paramref name="buffer"/>. On <see cref="FrameReadResult.Frame"/>,
    /// <paramref name="body"/> is the frame's body and <paramref name="buffer"/> is advanced past the frame;
    /// otherwise <paramref name="buffer"/> is left as it was.
    /// </summary>
    public FrameReadResult TryReadFrame(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> body)
    {
        body = default;
        if (buffer.Length < _headerLength)
        {
            return FrameReadResult.Incomplete;
        }

        Span<byte> scratch = stackalloc byte[4];
        var first = buffer.FirstSpan;
        var header = first.Length >= _headerLength ? first[.._headerLength] : CopyHeader(buffer, scratch);
        var outcome = ReadHeader(header, out var bodyLength);
        if (outcome != FrameReadResult.Frame)
        {
            return outcome;
        }

        if (buffer.Length < _headerLength + (long)bodyLength)
        {
            return FrameReadResult.Incomplete;
        }

        body = buffer.Slice(_headerLength, bodyLength);
        buffer = buffer.Slice(body.End);
        return FrameReadResult.Frame;
    }

    /// <summary>
    /// Reads one frame from the front of bytes held in one block, the usual case of a receive ring, where slicing a
    /// sequence per frame would cost more than the frame's own work. On <see cref="FrameReadResult.Frame"/> the body
    /// is the <paramref name="bodyLength"/> bytes after the header.
    /// </summary>
    internal FrameReadResult TryReadFrameInBlock(ReadOnlySpan<byte> buffer, out int bodyLength)
    {
        bodyLength = 0;
        if (buffer.Length < _headerLength)
        {
            return FrameReadResult.Incomplete;
        }

        var outcome = ReadHeader(buffer[.._headerLength], out var announcedBody);
        if (outcome != FrameReadResult.Frame)
        {
            return outcome;
        }

        if (buffer.Length - _headerLength < announcedBody)
        {
            return FrameReadResult.Incomplete;
        }

        bodyLength = (int)announcedBody;
        return FrameReadResult.Frame;
    }

    /// <summary>Frame when the header announces an acceptable body, whose length it gives.</summary>
    private FrameReadResult ReadHeader(ReadOnlySpan<byte> header, out uint bodyLength)
    {
        bodyLength = 0;
        var announced = Format.ReadAnnounced(header);
        if (announced < _lengthBias)
        {
            return FrameReadResult.Malformed;
        }

        bodyLength = announced - _lengthBias;
        if (bodyLength > _maxBodyLength)
        {
            return FrameReadResult.TooLarge;
        }

        return bodyLength < _minBodyLength ? FrameReadResult.Malformed : FrameReadResult.Frame;
    }

    private ReadOnlySpan<byte> CopyHeader(in ReadOnlySequence<byte> buffer, Span<byte> scratch)
    {
        var header = scratch[.._headerLength];
        buffer.Slice(0, _headerLength).CopyTo(header);
        return header;
    }
}
