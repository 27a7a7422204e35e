using System.Buffers;
using System.Runtime.CompilerServices;
using Berth.Buffers;

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
        _lengthBias = format.LengthBias;
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
        if (ArrayRun.TryGet(buffer, out var array, out var start))
        {
            return TryReadRunFrame(ref buffer, array, start, out body);
        }

        body = default;
        var available = buffer.Length;
        if (available < _headerLength)
        {
            return FrameReadResult.Incomplete;
        }

        var first = buffer.FirstSpan;
        var announced = first.Length >= _headerLength ? Format.ReadAnnounced(first[.._headerLength]) : ReadSplitHeader(buffer);
        var result = Judge(announced, available, out var bodyLength);
        if (result != FrameReadResult.Frame)
        {
            return result;
        }

        body = buffer.Slice(_headerLength, bodyLength);
        buffer = buffer.Slice(body.End);
        return FrameReadResult.Frame;
    }

    /// <summary>
    /// <see cref="TryReadFrame"/> over one run of one array, as the receive ring gives every frame that does not wrap:
    /// the header is read and the body and the rest cut from the array itself, where slicing the sequence goes through
    /// its general path for segments (a NativeAOT build calls it twice per frame, and the first-span lookup once).
    /// </summary>
    private FrameReadResult TryReadRunFrame(ref ReadOnlySequence<byte> buffer, byte[] array, int start, out ReadOnlySequence<byte> body)
    {
        body = default;
        var available = ArrayRun.Length(buffer, start);
        if (available < _headerLength)
        {
            return FrameReadResult.Incomplete;
        }

        var result = Judge(Format.ReadAnnounced(array.AsSpan(start, _headerLength)), available, out var bodyLength);
        if (result != FrameReadResult.Frame)
        {
            return result;
        }

        var frameLength = _headerLength + bodyLength;
        body = new ReadOnlySequence<byte>(array, start + _headerLength, bodyLength);
        buffer = new ReadOnlySequence<byte>(array, start + frameLength, available - frameLength);
        return FrameReadResult.Frame;
    }

    /// <summary>
    /// What a header announcing <paramref name="announced"/> means with <paramref name="available"/> bytes from its
    /// start: on <see cref="FrameReadResult.Frame"/>, the whole frame of <paramref name="bodyLength"/> body bytes is there.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private FrameReadResult Judge(uint announced, long available, out int bodyLength)
    {
        bodyLength = 0;
        if (announced < _lengthBias)
        {
            return FrameReadResult.Malformed;
        }

        var announcedBody = announced - _lengthBias;
        if (announcedBody > _maxBodyLength)
        {
            return FrameReadResult.TooLarge;
        }

        if (announcedBody < _minBodyLength)
        {
            return FrameReadResult.Malformed;
        }

        if (available - _headerLength < announcedBody)
        {
            return FrameReadResult.Incomplete;
        }

        bodyLength = (int)announcedBody;
        return FrameReadResult.Frame;
    }

    /// <summary>
    /// The announced length of a header split across segments, which only a wrapped ring gives. Its stack copy lives
    /// here so that the per-frame path has no stack buffer, which costs a stack-overrun check on every call.
    /// </summary>
    private uint ReadSplitHeader(in ReadOnlySequence<byte> buffer)
    {
        Span<byte> header = stackalloc byte[4];
        header = header[.._headerLength];
        buffer.Slice(0, _headerLength).CopyTo(header);
        return Format.ReadAnnounced(header);
    }
}
