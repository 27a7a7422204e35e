using System.Buffers;
using System.Runtime.CompilerServices;

namespace Berth.Connections.Send;

/// <summary>
/// Where accepted frames end in the byte stream, so that the number of bytes the peer acknowledged maps back to whole
/// frames when a connection is aborted. A frame only partly acknowledged counts as unsent: the peer's application
/// cannot have it. The ends of the first <see cref="InlineCapacity"/> frames since the peer last acknowledged
/// everything are kept in the object itself, so a connection that exchanges a request and a reply now and then holds
/// no array. Past that, two bounded rings in one array of <see cref="ArrayPool{T}.Shared"/> (the connection's own
/// <see cref="Buffers.BufferPool"/>, whose outstanding arrays say what live traffic holds, is not charged): the ends of
/// the last <see cref="Capacity"/> frames, one store per frame, and <see cref="Checkpoints"/> frame boundaries at least
/// <see cref="CheckpointInterval"/> bytes apart, which cover the 4 MiB a Linux socket's send buffer holds at most by
/// default. <see cref="ForgetIfAcknowledged"/> returns the array once the peer has acknowledged every byte.
/// </summary>
internal sealed class UnacknowledgedFrames(int shortestFrame)
{
    /// <summary>Frame ends kept without an array.</summary>
    public const int InlineCapacity = 4;

    /// <summary>Frame ends remembered.</summary>
    public const int Capacity = 128;

    /// <summary>Frame boundaries remembered past the frame ends, each as its stream offset and its frame count.</summary>
    public const int Checkpoints = 64;

    /// <summary>Least bytes between two checkpoints.</summary>
    public const int CheckpointInterval = 128 * 1024;

    private const int Longs = Capacity + (2 * Checkpoints);

    private readonly int _shortestFrame = Math.Max(shortestFrame, 1);
    private InlineEnds _inline;
    private long[]? _array;

    // Offsets are of the whole stream; frame counts start again at 0 each time the peer acknowledged everything.
    private long _acknowledgedBase;
    private long _frames;
    private long _bytes;
    private long _checkpoints;
    private long _lastCheckpoint;

    /// <summary>True while the ends live in a rented array.</summary>
    public bool HoldsArray => _array is not null;

    /// <summary>Bytes of every frame accepted so far: the stream offset where the next frame starts.</summary>
    public long AcceptedBytes => _bytes;

    /// <summary>True while some accepted frame may not be acknowledged.</summary>
    public bool Recording => _frames > 0;

    // Both read once per accepted frame; a NativeAOT build, having no profile, inlines them only if told.
    private int EndsCapacity
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _array is null ? InlineCapacity : Capacity;
    }

    private Span<long> Ends
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _array is null ? _inline : _array.AsSpan(0, Capacity);
    }

    private Span<long> Boundaries => _array.AsSpan(Capacity, 2 * Checkpoints);

    /// <summary>A frame of <paramref name="frameLength"/> bytes follows the ones before it in the stream.</summary>
    public void Accepted(int frameLength)
    {
        if (_array is null && _frames == InlineCapacity)
        {
            MoveToArray();
        }

        _bytes += frameLength;
        Ends[(int)(_frames & (EndsCapacity - 1))] = _bytes;
        _frames++;
        if (_array is not null && _bytes - _lastCheckpoint >= CheckpointInterval)
        {
            var slot = (int)(_checkpoints & (Checkpoints - 1)) * 2;
            var boundaries = Boundaries;
            boundaries[slot] = _bytes;
            boundaries[slot + 1] = _frames;
            _checkpoints++;
            _lastCheckpoint = _bytes;
        }
    }

    /// <summary>
    /// When the peer has acknowledged every accepted byte (<paramref name="acknowledgedBytes"/> from the socket), nothing
    /// recorded can be lost any more: forgets it and returns the array, so a quiet connection holds none.
    /// </summary>
    public void ForgetIfAcknowledged(long acknowledgedBytes)
    {
        if (acknowledgedBytes < _bytes)
        {
            return;
        }

        Release();
        _acknowledgedBase = _bytes;
        _frames = 0;
        _checkpoints = 0;
        _lastCheckpoint = _bytes;
    }

    /// <summary>Returns the array to the pool.</summary>
    public void Release()
    {
        if (_array is { } array)
        {
            _array = null;
            ArrayPool<long>.Shared.Return(array);
        }
    }

    /// <summary>
    /// The frames, and their bytes, not wholly within the first <paramref name="acknowledgedBytes"/> of the stream.
    /// Exact while fewer than <see cref="Capacity"/> frames are not acknowledged. Past that, every frame after the last
    /// checkpoint within the acknowledged bytes counts, which may include up to <see cref="CheckpointInterval"/> bytes
    /// of frames the peer has; past the checkpoints, the older frames are counted as if each were as short as the
    /// format allows. Too many, never too few.
    /// </summary>
    public (long Frames, long Bytes) After(long acknowledgedBytes)
    {
        if (acknowledgedBytes >= _bytes)
        {
            return (0, 0);
        }

        var ends = Ends;
        var mask = EndsCapacity - 1;
        var known = Math.Min(_frames, EndsCapacity);
        for (var back = 1L; back <= known; back++)
        {
            var end = ends[(int)((_frames - back) & mask)];
            if (end <= acknowledgedBytes)
            {
                return (back - 1, _bytes - end);
            }
        }

        if (_frames == known)
        {
            return (_frames, _bytes - _acknowledgedBase);
        }

        var boundaries = Boundaries;
        var knownCheckpoints = Math.Min(_checkpoints, Checkpoints);
        for (var back = 1L; back <= knownCheckpoints; back++)
        {
            var slot = (int)((_checkpoints - back) & (Checkpoints - 1)) * 2;
            if (boundaries[slot] <= acknowledgedBytes)
            {
                return (_frames - boundaries[slot + 1], _bytes - boundaries[slot]);
            }
        }

        if (_checkpoints <= Checkpoints)
        {
            // No checkpoint was forgotten, so where the peer last had everything is the last one within the
            // acknowledged bytes.
            return (_frames, _bytes - _acknowledgedBase);
        }

        var oldestKnownEnd = ends[(int)((_frames - known) & mask)];
        var olderUnacknowledged = Math.Min(_frames - known, ((oldestKnownEnd - acknowledgedBytes) / _shortestFrame) + 1);
        return (known + olderUnacknowledged, _bytes - acknowledgedBytes);
    }

    private void MoveToArray()
    {
        var array = ArrayPool<long>.Shared.Rent(Longs);
        for (var frame = 0L; frame < _frames; frame++)
        {
            array[frame & (Capacity - 1)] = _inline[(int)(frame & (InlineCapacity - 1))];
        }

        _array = array;
    }

    [System.Runtime.CompilerServices.InlineArray(InlineCapacity)]
    private struct InlineEnds
    {
        private long _end;
    }
}
