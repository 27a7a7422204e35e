using System.Buffers;

namespace Berth.Buffers;

/// <summary>One pooled array in a chain that a <see cref="ReadOnlySequence{T}"/> can walk.</summary>
internal sealed class BufferSegment : ReadOnlySequenceSegment<byte>
{
    public byte[] Array { get; private set; } = [];

    /// <summary>First byte of <see cref="Array"/> that belongs to this segment.</summary>
    public int Start { get; private set; }

    /// <summary>Bytes of <see cref="Array"/> in use, counted from <see cref="Start"/>.</summary>
    public int Count { get; set; }

    public int Free => Array.Length - Start - Count;

    public BufferSegment? NextSegment => (BufferSegment?)Next;

    public void Attach(byte[] array, int start = 0, int count = 0)
    {
        Array = array;
        Start = start;
        Count = count;
    }

    public byte[] Detach()
    {
        var array = Array;
        Array = [];
        Start = 0;
        Count = 0;
        Memory = default;
        Next = null;
        RunningIndex = 0;
        return array;
    }

    public void SetNext(BufferSegment? next) => Next = next;

    /// <summary>Publishes the current <see cref="Count"/> to readers of the sequence.</summary>
    public void Seal(long runningIndex)
    {
        Memory = new ReadOnlyMemory<byte>(Array, Start, Count);
        RunningIndex = runningIndex;
    }
}
