using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace Berth.Benchmarks.Core;

/// <summary>
/// The article's improved builder: every field asks the <see cref="ArrayBufferWriter{T}"/> for a span and advances
/// it. The simpler alternative to <c>PacketWriter</c>, which caches the span and advances once. Written out per type
/// as the article did: a generic version over <c>IBinaryInteger</c> boxes (its write methods are default interface
/// methods) and measured 24 B and about 50 ns more per field.
/// </summary>
internal sealed class SpanPerFieldBuilder(ArrayBufferWriter<byte> output, bool isLittleEndian)
{
    public SpanPerFieldBuilder Byte(byte value)
    {
        output.GetSpan(1)[0] = value;
        output.Advance(1);
        return this;
    }

    public SpanPerFieldBuilder Short(short value)
    {
        var span = output.GetSpan(2);
        if (isLittleEndian)
        {
            BinaryPrimitives.WriteInt16LittleEndian(span, value);
        }
        else
        {
            BinaryPrimitives.WriteInt16BigEndian(span, value);
        }

        output.Advance(2);
        return this;
    }

    public SpanPerFieldBuilder UShort(ushort value)
    {
        var span = output.GetSpan(2);
        if (isLittleEndian)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(span, value);
        }
        else
        {
            BinaryPrimitives.WriteUInt16BigEndian(span, value);
        }

        output.Advance(2);
        return this;
    }

    public SpanPerFieldBuilder Int(int value)
    {
        var span = output.GetSpan(4);
        if (isLittleEndian)
        {
            BinaryPrimitives.WriteInt32LittleEndian(span, value);
        }
        else
        {
            BinaryPrimitives.WriteInt32BigEndian(span, value);
        }

        output.Advance(4);
        return this;
    }

    public SpanPerFieldBuilder UInt(uint value)
    {
        var span = output.GetSpan(4);
        if (isLittleEndian)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(span, value);
        }
        else
        {
            BinaryPrimitives.WriteUInt32BigEndian(span, value);
        }

        output.Advance(4);
        return this;
    }

    public SpanPerFieldBuilder Long(long value)
    {
        var span = output.GetSpan(8);
        if (isLittleEndian)
        {
            BinaryPrimitives.WriteInt64LittleEndian(span, value);
        }
        else
        {
            BinaryPrimitives.WriteInt64BigEndian(span, value);
        }

        output.Advance(8);
        return this;
    }

    public SpanPerFieldBuilder ULong(ulong value)
    {
        var span = output.GetSpan(8);
        if (isLittleEndian)
        {
            BinaryPrimitives.WriteUInt64LittleEndian(span, value);
        }
        else
        {
            BinaryPrimitives.WriteUInt64BigEndian(span, value);
        }

        output.Advance(8);
        return this;
    }

    public SpanPerFieldBuilder String(string ascii)
    {
        var length = Encoding.ASCII.GetByteCount(ascii);
        Encoding.ASCII.GetBytes(ascii, output.GetSpan(length));
        output.Advance(length);
        return this;
    }
}
