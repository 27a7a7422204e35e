namespace Berth.Tcp.Send;

/// <summary>
/// Where the last <see cref="Capacity"/> accepted frames end in the byte stream, so that the number of bytes the peer
/// acknowledged maps back to whole frames when a connection is aborted. A frame only partly acknowledged counts as
/// unsent: the peer's application cannot have it. One array per connection, taken with its first frame; recording a
/// frame is one store.
/// </summary>
internal sealed class UnacknowledgedFrames
{
    /// <summary>Frames remembered; older ones are bounded from the shortest frame the format allows.</summary>
    public const int Capacity = 256;

    private readonly int _shortestFrame;
    private long[]? _ends;
    private long _frames;
    private long _bytes;

    public UnacknowledgedFrames(int shortestFrame) => _shortestFrame = Math.Max(shortestFrame, 1);

    /// <summary>A frame of <paramref name="frameLength"/> bytes follows the ones before it in the stream.</summary>
    public void Accepted(int frameLength)
    {
        _bytes += frameLength;
        (_ends ??= new long[Capacity])[(int)(_frames & (Capacity - 1))] = _bytes;
        _frames++;
    }

    /// <summary>
    /// The frames, and their bytes, not wholly within the first <paramref name="acknowledgedBytes"/> of the stream.
    /// When more frames than <see cref="Capacity"/> are unacknowledged, the older ones are counted as if each were as
    /// short as the format allows: too many, never too few.
    /// </summary>
    public (long Frames, long Bytes) After(long acknowledgedBytes)
    {
        if (acknowledgedBytes >= _bytes || _ends is null)
        {
            return (0, 0);
        }

        var known = Math.Min(_frames, Capacity);
        for (var back = 1L; back <= known; back++)
        {
            var end = _ends[(int)((_frames - back) & (Capacity - 1))];
            if (end <= acknowledgedBytes)
            {
                return (back - 1, _bytes - end);
            }
        }

        var oldestKnownEnd = _ends[(int)((_frames - known) & (Capacity - 1))];
        var older = _frames - known;
        if (older == 0)
        {
            return (known, _bytes);
        }

        var olderUnacknowledged = Math.Min(older, ((oldestKnownEnd - acknowledgedBytes) / _shortestFrame) + 1);
        return (known + olderUnacknowledged, _bytes - acknowledgedBytes);
    }
}
