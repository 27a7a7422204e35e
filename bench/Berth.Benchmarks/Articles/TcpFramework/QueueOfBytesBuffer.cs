namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// The source article's QueueBuffer: received bytes kept in a <see cref="Queue{T}"/> one byte at a
/// time. It exists only as the baseline the ring buffer is compared with.
/// </summary>
internal sealed class QueueOfBytesBuffer(int capacity)
{
    private readonly Queue<byte> _bytes = new(capacity);

    public void Write(ReadOnlySpan<byte> data)
    {
        foreach (var value in data)
        {
            _bytes.Enqueue(value);
        }
    }

    public int Read(Span<byte> destination)
    {
        var count = Math.Min(destination.Length, _bytes.Count);
        for (var i = 0; i < count; i++)
        {
            destination[i] = _bytes.Dequeue();
        }

        return count;
    }
}
