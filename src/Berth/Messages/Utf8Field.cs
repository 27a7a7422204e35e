using System.Buffers;
using System.Text;
using System.Text.Unicode;

namespace Berth.Messages;

/// <summary>
/// A UTF-8 string field read without allocating: the generated reader hands out a view of the field's bytes in the
/// received frame, checked to be valid UTF-8. On the wire it is a <see cref="string"/> field (a varint byte count and
/// the bytes), so one side of a contract may declare <see cref="string"/> and the other <see cref="Utf8Field"/>.
/// </summary>
/// <remarks>
/// A field read by a handler points into the connection's receive buffer, which is reused once the handler returns:
/// use it inside the handler, and call <see cref="ToString"/> (which allocates) for a string that outlives it. Read from
/// a <see cref="ReadOnlySpan{T}"/> rather than a frame, the field is a copy in a new array.
/// </remarks>
public readonly struct Utf8Field : IEquatable<Utf8Field>
{
    private readonly ReadOnlySequence<byte> _utf8;

    /// <summary>A field to send, over <paramref name="utf8"/>, which is not copied.</summary>
    /// <exception cref="ArgumentException"><paramref name="utf8"/> is not valid UTF-8.</exception>
    public Utf8Field(ReadOnlyMemory<byte> utf8)
    {
        if (!Utf8.IsValid(utf8.Span))
        {
            throw new ArgumentException("The bytes are not valid UTF-8.", nameof(utf8));
        }

        _utf8 = new ReadOnlySequence<byte>(utf8);
    }

    /// <summary>Wraps bytes the reader already checked.</summary>
    internal Utf8Field(in ReadOnlySequence<byte> checkedUtf8) => _utf8 = checkedUtf8;

    /// <summary>The field's UTF-8 bytes; more than one segment when the field straddled receive buffers.</summary>
    public ReadOnlySequence<byte> Utf8Bytes => _utf8;

    /// <summary>The field's length in bytes.</summary>
    public int ByteCount => (int)_utf8.Length;

    /// <summary>True for the empty string.</summary>
    public bool IsEmpty => _utf8.IsEmpty;

    /// <summary>Whether two fields hold the same bytes.</summary>
    public static bool operator ==(Utf8Field left, Utf8Field right) => left.Equals(right);

    /// <summary>Whether two fields hold different bytes.</summary>
    public static bool operator !=(Utf8Field left, Utf8Field right) => !left.Equals(right);

    /// <summary>Whether the field holds exactly <paramref name="utf8"/>, such as a <c>"literal"u8</c>, without allocating.</summary>
    public bool Equals(ReadOnlySpan<byte> utf8)
    {
        if (_utf8.Length != utf8.Length)
        {
            return false;
        }

        foreach (var segment in _utf8)
        {
            if (!segment.Span.SequenceEqual(utf8[..segment.Length]))
            {
                return false;
            }

            utf8 = utf8[segment.Length..];
        }

        return true;
    }

    /// <summary>Whether two fields hold the same bytes, wherever their segments split.</summary>
    public bool Equals(Utf8Field other)
    {
        if (_utf8.Length != other._utf8.Length)
        {
            return false;
        }

        if (other._utf8.IsSingleSegment)
        {
            return Equals(other._utf8.FirstSpan);
        }

        var offset = 0L;
        foreach (var segment in other._utf8)
        {
            if (!new Utf8Field(_utf8.Slice(offset, segment.Length)).Equals(segment.Span))
            {
                return false;
            }

            offset += segment.Length;
        }

        return true;
    }

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is Utf8Field other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode()
    {
        // Byte by byte, so the hash does not depend on where segments split.
        var hash = default(HashCode);
        foreach (var segment in _utf8)
        {
            foreach (var b in segment.Span)
            {
                hash.Add(b);
            }
        }

        return hash.ToHashCode();
    }

    /// <summary>Decodes the field into a new string.</summary>
    public override string ToString() => Encoding.UTF8.GetString(_utf8);

    /// <summary>Reads a field's bytes and checks them; false when they are not valid UTF-8.</summary>
    internal static bool TryCheck(in ReadOnlySequence<byte> utf8)
    {
        if (utf8.IsSingleSegment)
        {
            return Utf8.IsValid(utf8.FirstSpan);
        }

        // A character may straddle segments: check a pooled copy (no allocation once the pool holds the size).
        var length = (int)utf8.Length;
        var scratch = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            utf8.CopyTo(scratch);
            return Utf8.IsValid(scratch.AsSpan(0, length));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(scratch);
        }
    }
}
