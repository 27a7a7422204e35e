using System.Buffers;
using Berth.Buffers;
using Berth.Tests.Support;

namespace Berth.Tests.Buffers;

public class PacketReaderErrorTests
{
    public delegate void ReadField(ref PacketReader reader);

    public static TheoryData<string, int, ReadField> FieldReads => new()
    {
        { "UInt16", 2, (ref PacketReader r) => r.ReadUInt16() },
        { "Int16", 2, (ref PacketReader r) => r.ReadInt16() },
        { "UInt32", 4, (ref PacketReader r) => r.ReadUInt32() },
        { "Int32", 4, (ref PacketReader r) => r.ReadInt32() },
        { "UInt64", 8, (ref PacketReader r) => r.ReadUInt64() },
        { "Int64", 8, (ref PacketReader r) => r.ReadInt64() },
        { "Single", 4, (ref PacketReader r) => r.ReadSingle() },
        { "Double", 8, (ref PacketReader r) => r.ReadDouble() },
        { "Bytes", 5, (ref PacketReader r) => r.ReadBytes(new byte[5]) },
        { "FixedAscii", 6, (ref PacketReader r) => r.ReadFixedAscii(6) },
    };

    [Theory]
    [MemberData(nameof(FieldReads))]
    public void A_truncated_field_throws_a_format_exception_naming_its_offset(string field, int size, ReadField read)
    {
        for (var available = 0; available < size; available++)
        {
            var packet = new byte[3 + available];
            Array.Fill(packet, (byte)'a');
            var exception = Assert.Throws<PacketFormatException>(() =>
            {
                var reader = new PacketReader(Segments.OneBytePerSegment(packet));
                reader.ReadBytes(new byte[3]);
                read(ref reader);
            });

            Assert.Equal(field, exception.Field);
            Assert.Equal(3, exception.Offset);
        }
    }

    [Fact]
    public void A_failed_try_read_consumes_nothing()
    {
        var reader = new PacketReader(new byte[] { 1, 2, 3 });
        Assert.False(reader.TryReadUInt32(out _));
        Assert.Equal(0, reader.Consumed);
        Assert.Equal(0x0201, reader.ReadUInt16());
    }

    [Fact]
    public void A_string_longer_than_the_rest_of_the_packet_is_truncated_not_out_of_range()
    {
        var reader = new PacketReader(new byte[] { 10, 0, (byte)'h', (byte)'i' });
        Assert.False(reader.TryReadUtf8(out string? _));
        Assert.Equal(0, reader.Consumed);
        var exception = Assert.Throws<PacketFormatException>(() => new PacketReader(new byte[] { 10, 0, (byte)'h' }).ReadUtf8());
        Assert.Equal("Utf8", exception.Field);
        Assert.Equal(0, exception.Offset);
    }

    [Theory]
    [InlineData(new byte[] { 2 })]
    [InlineData(new byte[] { 0xFF })]
    public void A_boolean_other_than_zero_or_one_is_malformed(byte[] packet)
    {
        var reader = new PacketReader(packet);
        Assert.False(reader.TryReadBoolean(out _));
        Assert.Equal(0, reader.Consumed);
    }

    [Theory]
    [InlineData(new byte[] { 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 })]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0x1F })]
    [InlineData(new byte[] { 0x80 })]
    public void An_overlong_overflowing_or_unterminated_varint_is_rejected(byte[] packet)
    {
        var exception = Assert.Throws<PacketFormatException>(() => new PacketReader(packet).ReadVarUInt32());
        Assert.Equal("VarUInt32", exception.Field);
    }

    [Theory]
    [InlineData(new byte[] { 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 }, 0)]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0x1F }, 0)]
    [InlineData(new byte[] { 0x80 }, 0)]
    [InlineData(new byte[] { 0xAC, 0x02 }, 2)]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x2A }, 5)]
    public void A_varint_reads_alike_in_one_span_and_across_segments(byte[] packet, int consumed)
    {
        // The in-span path and the straddling one must agree on every value and every rejection.
        var inSpan = new PacketReader(packet);
        var spanRead = inSpan.TryReadVarUInt32(out var spanValue);
        var split = new PacketReader(Segments.OneBytePerSegment(packet));
        var splitRead = split.TryReadVarUInt32(out var splitValue);

        Assert.Equal(spanRead, splitRead);
        Assert.Equal(spanValue, splitValue);
        Assert.Equal(inSpan.Consumed, split.Consumed);
        Assert.Equal(consumed, inSpan.Consumed);
    }

    [Fact]
    public void Invalid_utf8_and_non_ascii_bytes_are_malformed()
    {
        byte[] badUtf8 = [2, 0, 0xC3, 0x28];
        byte[] notAscii = [1, 0, 0xE9];
        Assert.Throws<PacketFormatException>(() => new PacketReader(badUtf8).ReadUtf8());
        Assert.Throws<PacketFormatException>(() => new PacketReader(Segments.OneBytePerSegment(badUtf8)).ReadUtf8());
        Assert.Throws<PacketFormatException>(() => new PacketReader(notAscii).ReadAscii());
    }

    [Fact]
    public void A_string_too_long_for_its_prefix_or_field_is_refused_by_the_writer()
    {
        var output = new ArrayBufferWriter<byte>();
        Assert.Throws<ArgumentException>(() => new PacketWriter(output).WriteAscii(new string('a', 70_000)));
        Assert.Throws<ArgumentException>(() => new PacketWriter(output).WriteFixedAscii("toolong", 3));
        Assert.Throws<ArgumentException>(() => new PacketWriter(output).WriteFixedUtf8("ü", 1));
        Assert.Throws<ArgumentException>(() => new PacketWriter(output).WriteAscii("ü"));
    }

    [Fact]
    public void Utf8_into_a_char_buffer_reports_a_destination_too_small()
    {
        byte[] packet = [5, 0, .. "hello"u8];
        var reader = new PacketReader(packet);
        Assert.False(reader.TryReadUtf8(new char[4], out _));
        Assert.Equal(0, reader.Consumed);
        var chars = new char[5];
        Assert.Equal(5, reader.ReadUtf8(chars));
        Assert.Equal("hello", new string(chars));
    }
}
