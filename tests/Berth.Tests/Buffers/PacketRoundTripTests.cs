using System.Buffers;
using Berth.Buffers;
using Berth.Tests.Support;

namespace Berth.Tests.Buffers;

public class PacketRoundTripTests
{
    public static TheoryData<Endianness> Endiannesses => new() { Endianness.Little, Endianness.Big };

    [Theory]
    [MemberData(nameof(Endiannesses))]
    public void Every_field_type_reads_back_what_was_written(Endianness endianness)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output, endianness);
        writer.WriteByte(0xFE);
        writer.WriteSByte(-3);
        writer.WriteBoolean(true);
        writer.WriteBoolean(false);
        writer.WriteUInt16(0xBEEF);
        writer.WriteInt16(-12345);
        writer.WriteUInt32(0xDEADBEEF);
        writer.WriteInt32(int.MinValue);
        writer.WriteUInt64(ulong.MaxValue - 1);
        writer.WriteInt64(long.MinValue + 7);
        writer.WriteSingle(3.25f);
        writer.WriteDouble(-1e300);
        writer.WriteVarUInt32(uint.MaxValue);
        writer.WriteBytes([1, 2, 3]);
        writer.WriteUtf8("héllo wörld ✓");
        writer.WriteUtf8("varint", StringLengthPrefix.VarInt);
        writer.WriteAscii("ascii");
        writer.WriteAscii("", StringLengthPrefix.VarInt);
        writer.WriteFixedAscii("pad", 8);
        writer.WriteFixedUtf8("ü", 4);
        writer.Flush();

        var reader = new PacketReader(output.WrittenSpan, endianness);
        Assert.Equal(0xFE, reader.ReadByte());
        Assert.Equal(-3, reader.ReadSByte());
        Assert.True(reader.ReadBoolean());
        Assert.False(reader.ReadBoolean());
        Assert.Equal(0xBEEF, reader.ReadUInt16());
        Assert.Equal(-12345, reader.ReadInt16());
        Assert.Equal(0xDEADBEEF, reader.ReadUInt32());
        Assert.Equal(int.MinValue, reader.ReadInt32());
        Assert.Equal(ulong.MaxValue - 1, reader.ReadUInt64());
        Assert.Equal(long.MinValue + 7, reader.ReadInt64());
        Assert.Equal(3.25f, reader.ReadSingle());
        Assert.Equal(-1e300, reader.ReadDouble());
        Assert.Equal(uint.MaxValue, reader.ReadVarUInt32());
        var bytes = new byte[3];
        reader.ReadBytes(bytes);
        Assert.Equal([1, 2, 3], bytes);
        Assert.Equal("héllo wörld ✓", reader.ReadUtf8());
        Assert.Equal("varint", reader.ReadUtf8(StringLengthPrefix.VarInt));
        Assert.Equal("ascii", reader.ReadAscii());
        Assert.Equal("", reader.ReadAscii(StringLengthPrefix.VarInt));
        Assert.Equal("pad", reader.ReadFixedAscii(8));
        Assert.Equal("ü", reader.ReadFixedUtf8(4));
        Assert.Equal(0, reader.Remaining);
        Assert.Equal(output.WrittenCount, reader.Consumed);
    }

    [Fact]
    public void Byte_order_follows_the_writer_choice()
    {
        var little = new ArrayBufferWriter<byte>();
        var big = new ArrayBufferWriter<byte>();
        Write(little, Endianness.Little);
        Write(big, Endianness.Big);

        Assert.Equal(new byte[] { 0x04, 0x03, 0x02, 0x01, 0x02, 0x01 }, little.WrittenSpan.ToArray());
        Assert.Equal(new byte[] { 0x01, 0x02, 0x03, 0x04, 0x01, 0x02 }, big.WrittenSpan.ToArray());

        static void Write(ArrayBufferWriter<byte> output, Endianness endianness)
        {
            var writer = new PacketWriter(output, endianness);
            writer.WriteUInt32(0x01020304);
            writer.WriteUInt16(0x0102);
            writer.Flush();
        }
    }

    [Theory]
    [InlineData(0u, new byte[] { 0x00 })]
    [InlineData(127u, new byte[] { 0x7F })]
    [InlineData(128u, new byte[] { 0x80, 0x01 })]
    [InlineData(300u, new byte[] { 0xAC, 0x02 })]
    [InlineData(uint.MaxValue, new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0x0F })]
    public void Varints_are_unsigned_leb128(uint value, byte[] expected)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output);
        writer.WriteVarUInt32(value);
        writer.Flush();
        Assert.Equal(expected, output.WrittenSpan.ToArray());
    }

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(42)]
    public void Random_mixed_fields_round_trip_through_spans_and_split_sequences(int seed)
    {
        var random = new Random(seed);
        for (var packet = 0; packet < 1_000; packet++)
        {
            var endianness = random.Next(2) == 0 ? Endianness.Little : Endianness.Big;
            var fields = RandomFields.Generate(random, random.Next(1, 24));
            var output = new ArrayBufferWriter<byte>();
            var writer = new PacketWriter(output, endianness);
            foreach (var field in fields)
            {
                field.Write(ref writer);
            }

            writer.Flush();
            var bytes = output.WrittenMemory;

            var spanReader = new PacketReader(bytes.Span, endianness);
            RandomFields.AssertReadsBack(fields, ref spanReader);

            var cuts = Enumerable.Range(0, random.Next(1, 6)).Select(_ => random.Next(bytes.Length + 1)).Order().ToArray();
            var sequenceReader = new PacketReader(Segments.Split(bytes, cuts), endianness);
            RandomFields.AssertReadsBack(fields, ref sequenceReader);
        }
    }

    [Fact]
    public void Fields_read_back_when_every_byte_is_its_own_segment()
    {
        var random = new Random(2024);
        for (var packet = 0; packet < 200; packet++)
        {
            var fields = RandomFields.Generate(random, 16);
            var output = new ArrayBufferWriter<byte>();
            var writer = new PacketWriter(output, Endianness.Big);
            foreach (var field in fields)
            {
                field.Write(ref writer);
            }

            writer.Flush();
            var reader = new PacketReader(Segments.OneBytePerSegment(output.WrittenMemory), Endianness.Big);
            RandomFields.AssertReadsBack(fields, ref reader);
        }
    }

    [Fact]
    public void Writer_spans_many_pooled_segments()
    {
        var pool = new BufferPool();
        using (var output = new PooledBufferWriter(pool, segmentSize: 16))
        {
            var writer = new PacketWriter(output);
            for (var i = 0; i < 1_000; i++)
            {
                writer.WriteInt32(i);
                writer.WriteAscii("x", StringLengthPrefix.VarInt);
            }

            writer.Flush();
            Assert.Equal(6_000, output.WrittenCount);
            Assert.False(output.WrittenSequence.IsSingleSegment);

            var reader = new PacketReader(output.WrittenSequence);
            for (var i = 0; i < 1_000; i++)
            {
                Assert.Equal(i, reader.ReadInt32());
                Assert.Equal("x", reader.ReadAscii(StringLengthPrefix.VarInt));
            }
        }

        Assert.Equal(0, pool.Outstanding);
    }
}
