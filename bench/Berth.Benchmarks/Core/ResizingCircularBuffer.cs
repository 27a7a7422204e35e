namespace Berth.Benchmarks.Core;

/// <summary>
/// The tcp-framework article's CircularBuffer: a ring that grows with a fresh array (<c>Array.Resize</c>-style), and
/// hands packets out as new arrays. The baseline for growth and parsing allocations.
/// </summary>
internal sealed class ResizingCircularBuffer(int capacity)
{
    private byte[] _buffer = new byte[capacity];
    private int _head;
    private int _length;

    public int Length => _length;

    public void Write(ReadOnlySpan<byte> data)
    {
        if (_buffer.Length - _length < data.Length)
        {
            var larger = new byte[Math.Max(_buffer.Length * 2, _length + data.Length)];
            CopyOut(larger.AsSpan(0, _length));
            _buffer = larger;
            _head = 0;
        }

        var tail = (_head + _length) % _buffer.Length;
        var first = Math.Min(data.Length, _buffer.Length - tail);
        data[..first].CopyTo(_buffer.AsSpan(tail));
        data[first..].CopyTo(_buffer);
        _length += data.Length;
    }

    public void Peek(Span<byte> destination) => CopyOut(destination);

    public void Consume(int count)
    {
        _head = (_head + count) % _buffer.Length;
        _length -= count;
    }

    /// <summary>Splits off u32-length-prefixed packets the way the article's parser did: a new array each.</summary>
    public List<byte[]> TakePackets()
    {
        var packets = new List<byte[]>();
        Span<byte> header = stackalloc byte[4];
        while (_length >= 4)
        {
            Peek(header);
            var bodyLength = BitConverter.ToInt32(header);
            if (_length < 4 + bodyLength)
            {
                break;
            }

            var all = new byte[4 + bodyLength];
            Peek(all);
            packets.Add(all.Skip(4).Take(bodyLength).ToArray());
            Consume(4 + bodyLength);
        }

        return packets;
    }

    private void CopyOut(Span<byte> destination)
    {
        var first = Math.Min(destination.Length, _buffer.Length - _head);
        _buffer.AsSpan(_head, first).CopyTo(destination);
        _buffer.AsSpan(0, destination.Length - first).CopyTo(destination[first..]);
    }
}
