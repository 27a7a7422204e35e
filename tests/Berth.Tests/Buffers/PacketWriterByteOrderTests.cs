using System.Buffers;
using System.Buffers.Binary;
using Berth.Buffers;

namespace Berth.Tests.Buffers;

/// <summary>One packet may switch byte order between fields, and a serializer may fill a span of known size.</summary>
public sealed class PacketWriterByteOrderTests
{
    [Fact]
    public void Fields_after_a_byte_order_switch_use_the_new_order()
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output);

        writer.WriteInt32(0x01020304);
        writer.Endianness = Endianness.Big;
        writer.WriteInt32(0x01020304);
        writer.WriteUInt16(0x0506);
        writer.Endianness = Endianness.Little;
        writer.WriteInt64(7);
        writer.Flush();

        var bytes = output.WrittenSpan;
        Assert.Equal(0x01020304, BinaryPrimitives.ReadInt32LittleEndian(bytes));
        Assert.Equal(0x01020304, BinaryPrimitives.ReadInt32BigEndian(bytes[4..]));
        Assert.Equal(0x0506, BinaryPrimitives.ReadUInt16BigEndian(bytes[8..]));
        Assert.Equal(7, BinaryPrimitives.ReadInt64LittleEndian(bytes[10..]));
    }

    [Fact]
    public void A_taken_span_is_counted_as_written_between_other_fields()
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output);

        writer.WriteByte(1);
        "abc"u8.CopyTo(writer.TakeSpan(3));
        writer.WriteByte(2);
        Assert.Equal(5, writer.BytesWritten);
        writer.Flush();

        Assert.Equal(new byte[] { 1, (byte)'a', (byte)'b', (byte)'c', 2 }, output.WrittenSpan.ToArray());
    }
}
