using System.Buffers.Binary;

namespace Berth.Fuzz;

/// <summary>
/// Damages a well-formed input the ways a hostile or broken peer would: flipped bits, truncation, inserted and
/// deleted bytes, repeated chunks, and length fields overwritten with extreme values.
/// </summary>
internal static class InputMutator
{
    /// <summary>Applies one to three mutations to <c>buffer[..length]</c> and returns the new length.</summary>
    public static int Mutate(Span<byte> buffer, int length, ref FuzzRandom random)
    {
        var count = random.Next(1, 4);
        for (var i = 0; i < count; i++)
        {
            length = MutateOnce(buffer, length, ref random);
        }

        return length;
    }

    private static int MutateOnce(Span<byte> buffer, int length, ref FuzzRandom random)
    {
        switch (random.Next(7))
        {
            case 0:
                if (length > 0)
                {
                    buffer[random.Next(length)] ^= (byte)(1 << random.Next(8));
                }

                return length;
            case 1:
                return random.Next(length + 1);
            case 2:
                return Insert(buffer, length, ref random);
            case 3:
                return Delete(buffer, length, ref random);
            case 4:
                return RepeatChunk(buffer, length, ref random);
            case 5:
                if (length > 0)
                {
                    buffer[random.Next(length)] = random.NextByte();
                }

                return length;
            default:
                return OverwriteWithExtreme(buffer, length, ref random);
        }
    }

    private static int Insert(Span<byte> buffer, int length, ref FuzzRandom random)
    {
        var count = Math.Min(buffer.Length - length, random.Next(1, 5));
        var at = random.Next(length + 1);
        buffer[at..length].CopyTo(buffer[(at + count)..]);
        random.Fill(buffer.Slice(at, count));
        return length + count;
    }

    private static int Delete(Span<byte> buffer, int length, ref FuzzRandom random)
    {
        if (length == 0)
        {
            return 0;
        }

        var at = random.Next(length);
        var count = Math.Min(length - at, random.Next(1, 5));
        buffer[(at + count)..length].CopyTo(buffer[at..]);
        return length - count;
    }

    private static int RepeatChunk(Span<byte> buffer, int length, ref FuzzRandom random)
    {
        if (length == 0)
        {
            return 0;
        }

        var from = random.Next(length);
        var count = Math.Min(Math.Min(length - from, random.Next(1, 33)), buffer.Length - length);
        buffer.Slice(from, count).CopyTo(buffer[length..]);
        return length + count;
    }

    /// <summary>Writes a value that sits on a boundary (0, all ones, sign bit, 16-bit limits) at a random offset.</summary>
    private static int OverwriteWithExtreme(Span<byte> buffer, int length, ref FuzzRandom random)
    {
        if (length < 4)
        {
            return length;
        }

        ReadOnlySpan<uint> extremes = [0, 1, 2, 3, 4, 5, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF];
        var value = extremes[random.Next(extremes.Length)];
        var at = random.Next(length - 3);
        if (random.OneIn(2))
        {
            BinaryPrimitives.WriteUInt32LittleEndian(buffer[at..], value);
        }
        else
        {
            BinaryPrimitives.WriteUInt32BigEndian(buffer[at..], value);
        }

        return length;
    }
}
