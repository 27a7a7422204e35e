using System.Buffers;
using System.Runtime.CompilerServices;

namespace Berth.Buffers;

/// <summary>
/// A sequence that is one run of one array, as every frame the receive ring delivers without a wrap is, read without
/// <see cref="ReadOnlySequence{T}.FirstSpan"/>: that goes through a call and a switch on what backs the sequence, which
/// on a typed frame's path cost more than reading its fields.
/// </summary>
internal static class ArrayRun
{
    /// <summary>True with the array and the run's start when <paramref name="sequence"/> is one run of a byte array.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryGet(in ReadOnlySequence<byte> sequence, out byte[] array, out int start)
    {
        var first = sequence.Start;
        var owner = first.GetObject();
        // The exact type, not `is byte[]`, which also admits an sbyte[] through array covariance and costs a helper call.
        if (owner is not null && owner.GetType() == typeof(byte[]) && sequence.IsSingleSegment)
        {
            array = Unsafe.As<byte[]>(owner);
            start = first.GetInteger();
            return true;
        }

        array = null!;
        start = 0;
        return false;
    }

    /// <summary>The bytes of a one-run sequence of <paramref name="array"/> from <paramref name="start"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ReadOnlySpan<byte> Span(in ReadOnlySequence<byte> sequence, byte[] array, int start) =>
        new(array, start, Length(sequence, start));

    /// <summary>The length of a one-run sequence that starts at <paramref name="start"/> of its array.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Length(in ReadOnlySequence<byte> sequence, int start) => sequence.End.GetInteger() - start;
}
