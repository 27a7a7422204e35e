using System.Buffers;
using Berth.Buffers;
using Berth.Tests.Support;

namespace Berth.Tests.Buffers;

/// <summary>
/// A span of numbers written and read at once gives the same bytes as writing each number with its own method, in
/// both byte orders, and survives a span that crosses the output's segments or the input's.
/// </summary>
public sealed class PacketElementsTests
{
    private static readonly int[] Ints = [1, -2, 0x01020304, int.MinValue, int.MaxValue, 77, 0, -1, 5];
    private static readonly double[] Doubles = [0.5, -1e300, double.Epsilon, 3];
    private static readonly ushort[] Shorts = [1, 0xABCD, 0, ushort.MaxValue, 0x0102];
    private static readonly Direction[] Directions = [Direction.West, Direction.North, Direction.South];

    [Theory]
    [InlineData(Endianness.Little)]
    [InlineData(Endianness.Big)]
    public void A_span_write_gives_the_bytes_of_one_write_per_element(Endianness order)
    {
        var bySpan = Write(order, static (ref PacketWriter w) =>
        {
            w.WriteElements<int>(Ints);
            w.WriteElements<double>(Doubles);
            w.WriteElements<ushort>(Shorts);
            w.WriteElements<Direction>(Directions);
        });
        var byElement = Write(order, static (ref PacketWriter w) =>
        {
            foreach (var value in Ints)
            {
                w.WriteInt32(value);
            }

            foreach (var value in Doubles)
            {
                w.WriteDouble(value);
            }

            foreach (var value in Shorts)
            {
                w.WriteUInt16(value);
            }

            foreach (var value in Directions)
            {
                w.WriteInt32((int)value);
            }
        });

        Assert.Equal(byElement, bySpan);
    }

    [Theory]
    [InlineData(Endianness.Little)]
    [InlineData(Endianness.Big)]
    public void A_span_read_gives_back_what_a_span_write_wrote(Endianness order)
    {
        var bytes = WriteAll(order);
        var reader = new PacketReader(bytes, order);

        AssertReadsAll(ref reader);
    }

    [Theory]
    [InlineData(Endianness.Little)]
    [InlineData(Endianness.Big)]
    public void A_span_crossing_the_outputs_segments_and_the_inputs_reads_back_whole(Endianness order)
    {
        // 16-byte segments: the ints (36 bytes) and the doubles (32 bytes) each cross several of them.
        using var output = new PooledBufferWriter(segmentSize: 16);
        var writer = new PacketWriter(output, order);
        writer.WriteByte(9);
        writer.WriteElements<int>(Ints);
        writer.WriteElements<double>(Doubles);
        writer.WriteElements<ushort>(Shorts);
        writer.WriteElements<Direction>(Directions);
        writer.Flush();
        Assert.True(output.WrittenSequence.IsSingleSegment is false);
        Assert.Equal([9, .. WriteAll(order)], output.WrittenSequence.ToArray());

        var bytes = WriteAll(order);
        var reader = new PacketReader(Segments.Split(bytes, 3, 10, 11, 30, 45, 46, 47), order);
        AssertReadsAll(ref reader);

        var oneByteSegments = new PacketReader(Segments.OneBytePerSegment(bytes), order);
        AssertReadsAll(ref oneByteSegments);
    }

    [Fact]
    public void Too_few_bytes_consume_nothing_and_the_throwing_read_names_the_offset()
    {
        var bytes = WriteAll(Endianness.Little);
        var reader = new PacketReader(bytes.AsSpan(0, 10));
        var four = new int[4];

        Assert.False(reader.TryReadElements<int>(four));
        Assert.Equal(0, reader.Consumed);
        Assert.True(reader.TryReadElements<int>(four.AsSpan(0, 2)));
        Assert.Equal(Ints[..2], four[..2]);

        var error = Assert.Throws<PacketFormatException>(() =>
        {
            var throwing = new PacketReader(bytes.AsSpan(0, 10));
            throwing.ReadInt32();
            throwing.ReadElements<int>(new int[3]);
        });
        Assert.Equal(4, error.Offset);
    }

    [Fact]
    public void Types_that_are_not_one_number_are_refused()
    {
        var output = new ArrayBufferWriter<byte>();
        Assert.Throws<ArgumentException>(() =>
        {
            var writer = new PacketWriter(output);
            writer.WriteElements<bool>([true]);
        });
        Assert.Throws<ArgumentException>(() =>
        {
            var writer = new PacketWriter(output);
            writer.WriteElements<(int, int)>([(1, 2)]);
        });
        Assert.Throws<ArgumentException>(() =>
        {
            var reader = new PacketReader(new byte[8]);
            reader.TryReadElements(new nint[1]);
        });
        Assert.Equal(0, output.WrittenCount);
    }

    private delegate void Fill(ref PacketWriter writer);

    private static byte[] Write(Endianness order, Fill fill)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output, order);
        fill(ref writer);
        writer.Flush();
        return output.WrittenSpan.ToArray();
    }

    private static byte[] WriteAll(Endianness order) => Write(order, static (ref PacketWriter w) =>
    {
        w.WriteElements<int>(Ints);
        w.WriteElements<double>(Doubles);
        w.WriteElements<ushort>(Shorts);
        w.WriteElements<Direction>(Directions);
    });

    private static void AssertReadsAll(ref PacketReader reader)
    {
        var ints = new int[Ints.Length];
        var doubles = new double[Doubles.Length];
        var shorts = new ushort[Shorts.Length];
        var directions = new Direction[Directions.Length];
        reader.ReadElements<int>(ints);
        reader.ReadElements<double>(doubles);
        Assert.True(reader.TryReadElements<ushort>(shorts));
        reader.ReadElements<Direction>(directions);

        Assert.Equal(Ints, ints);
        Assert.Equal(Doubles, doubles);
        Assert.Equal(Shorts, shorts);
        Assert.Equal(Directions, directions);
        Assert.Equal(0, reader.Remaining);
    }

    private enum Direction
    {
        North = 1,
        South = 0x01020304,
        West = -7,
    }
}