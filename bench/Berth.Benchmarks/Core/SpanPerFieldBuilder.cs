using System.Buffers;
using System.Numerics;
using System.Text;

namespace Berth.Benchmarks.Core;

/// <summary>
/// The article's improved builder: every field asks the <see cref="ArrayBufferWriter{T}"/> for a span, writes the
/// value in the chosen byte order and advances. The simpler alternative to <c>PacketWriter</c>, which caches the
/// span and advances once.
/// </summary>
internal sealed class SpanPerFieldBuilder(ArrayBufferWriter<byte> output, bool isLittleEndian)
{
    public SpanPerFieldBuilder Byte(byte value) => Put(value);

    public SpanPerFieldBuilder Short(short value) => Put(value);

    public SpanPerFieldBuilder UShort(ushort value) => Put(value);

    public SpanPerFieldBuilder Int(int value) => Put(value);

    public SpanPerFieldBuilder UInt(uint value) => Put(value);

    public SpanPerFieldBuilder Long(long value) => Put(value);

    public SpanPerFieldBuilder ULong(ulong value) => Put(value);

    public SpanPerFieldBuilder String(string ascii)
    {
        var length = Encoding.ASCII.GetByteCount(ascii);
        Encoding.ASCII.GetBytes(ascii, output.GetSpan(length));
        output.Advance(length);
        return this;
    }

    private SpanPerFieldBuilder Put<T>(T value)
        where T : IBinaryInteger<T>
    {
        var size = value.GetByteCount();
        var span = output.GetSpan(size);
        var written = isLittleEndian ? value.WriteLittleEndian(span) : value.WriteBigEndian(span);
        output.Advance(written);
        return this;
    }
}
