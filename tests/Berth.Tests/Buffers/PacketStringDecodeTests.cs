using System.Buffers;
using System.Text;
using Berth.Buffers;
using Berth.Tests.Support;

namespace Berth.Tests.Buffers;

/// <summary>
/// Strings decode the same whichever path they take: ASCII, other UTF-8, invalid bytes, in one segment (read where they
/// lie) or split across segments (copied first), from a span or a sequence in one segment.
/// </summary>
public class PacketStringDecodeTests
{
    public static TheoryData<string> Texts => new() { "", "player-with-a-long-name!", "héllo wörld ✓", "mixed ascii then ü" };

    [Theory]
    [MemberData(nameof(Texts))]
    public void A_utf8_string_reads_back_the_same_in_one_segment_and_split(string text)
    {
        var packet = Written((ref PacketWriter w) => w.WriteUtf8(text, StringLengthPrefix.VarInt));

        Assert.Equal(text, new PacketReader(packet).ReadUtf8(StringLengthPrefix.VarInt));
        Assert.Equal(text, new PacketReader(new ReadOnlySequence<byte>(packet)).ReadUtf8(StringLengthPrefix.VarInt));
        Assert.Equal(text, new PacketReader(Segments.OneBytePerSegment(packet)).ReadUtf8(StringLengthPrefix.VarInt));
    }

    [Fact]
    public void An_ascii_field_with_a_byte_over_127_is_refused_and_consumes_nothing()
    {
        byte[] packet = [3, 0, (byte)'a', 0xC3, 0xA9];

        var reader = new PacketReader(packet);
        Assert.False(reader.TryReadAscii(out _));
        Assert.Equal(0, reader.Consumed);
        Assert.Equal("aé", reader.ReadUtf8());
    }

    [Fact]
    public void Invalid_utf8_after_ascii_bytes_is_refused_in_one_segment_and_split()
    {
        byte[] packet = [4, (byte)'a', (byte)'b', 0xC3, 0x28];

        var reader = new PacketReader(packet);
        Assert.False(reader.TryReadUtf8(out _, StringLengthPrefix.VarInt));
        Assert.Equal(0, reader.Consumed);
        var split = new PacketReader(Segments.OneBytePerSegment(packet));
        Assert.False(split.TryReadUtf8(out _, StringLengthPrefix.VarInt));
        Assert.Equal(0, split.Consumed);
    }

    private static byte[] Written(PacketWrite write)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output);
        write(ref writer);
        writer.Flush();
        return output.WrittenSpan.ToArray();
    }

    private delegate void PacketWrite(ref PacketWriter writer);
}
