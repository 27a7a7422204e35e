namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// The source article's CircularBuffer shape: a fixed array with a read position and a count,
/// written and read with at most two block copies when the data wraps around the end.
/// </summary>
internal sealed class ArrayRingBuffer(int capacity)
{
    private readonly byte[] _buffer = new byte[capacity];
    private int _start;
    private int _count;

    public void Write(ReadOnlySpan<byte> data)
    {
        if (data.Length > _buffer.Length - _count)
        {
            throw new InvalidOperationException("ring buffer full");
        }

        var end = (_start + _count) % _buffer.Length;
        var first = Math.Min(data.Length, _buffer.Length - end);
        data[..first].CopyTo(_buffer.AsSpan(end));
        data[first..].CopyTo(_buffer);
        _count += data.Length;
    }

    public int Read(Span<byte> destination)
    {
        var count = Math.Min(destination.Length, _count);
        var first = Math.Min(count, _buffer.Length - _start);
        _buffer.AsSpan(_start, first).CopyTo(destination);
        _buffer.AsSpan(0, count - first).CopyTo(destination[first..]);
        _start = (_start + count) % _buffer.Length;
        _count -= count;
        return count;
    }
}
