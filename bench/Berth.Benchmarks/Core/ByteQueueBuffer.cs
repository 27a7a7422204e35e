namespace Berth.Benchmarks.Core;

/// <summary>The tcp-framework article's QueueBuffer: a <see cref="Queue{T}"/> fed and drained one byte at a time.</summary>
internal sealed class ByteQueueBuffer
{
    private readonly Queue<byte> _bytes = new(8192);

    public int Length => _bytes.Count;

    public void Write(ReadOnlySpan<byte> data)
    {
        foreach (var b in data)
        {
            _bytes.Enqueue(b);
        }
    }

    public void Read(Span<byte> destination)
    {
        for (var i = 0; i < destination.Length; i++)
        {
            destination[i] = _bytes.Dequeue();
        }
    }

    public void Peek(Span<byte> destination)
    {
        var i = 0;
        foreach (var b in _bytes)
        {
            if (i == destination.Length)
            {
                return;
            }

            destination[i++] = b;
        }
    }
}
