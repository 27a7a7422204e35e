using System.Buffers;
using System.Reflection;
using System.Text;
using Berth.Buffers;
using Berth.Tests.Support;

namespace Berth.Tests.Messages;

/// <summary>
/// The copies that stand in for field-by-field code: a struct laid out as its wire form written and read as one block,
/// collections of fixed-width elements as one run, strings encoded in place. Each writes exactly the bytes the
/// field-by-field path writes, in both byte orders, and reads them back over one span and over one byte per segment.
/// </summary>
public class BlockCopyTests
{
    private static readonly BlockPosition Position = new()
    {
        Id = -123_456_789, X = 1.5f, Layer = -300, Letter = '€', Facing = Direction.South, Mood = -7, Flags = 0xBEEF,
        Tick = 9_876_543_210_123, Speed = -0.25,
    };

    [Fact]
    public void A_struct_laid_out_as_its_wire_form_is_one_block_with_the_bytes_of_its_fields()
    {
        var body = MessageBytes.Encode(Position);

        Assert.Equal(BitConverter.IsLittleEndian, IsBlock<BlockPosition>());
        Assert.Equal(FieldByField(Position, Endianness.Little), body);
        Assert.Equal(BlockPosition.SizeHint, body.Length);
        Assert.Equal(Position, MessageBytes.Decode<BlockPosition>(body));
        Assert.Equal(Position, MessageBytes.Decode<BlockPosition>(Segments.OneBytePerSegment(body)));
    }

    [Fact]
    public void The_same_struct_in_the_other_byte_order_is_written_field_by_field()
    {
        var big = new BlockPositionBig
        {
            Id = Position.Id, X = Position.X, Layer = Position.Layer, Letter = Position.Letter, Facing = Position.Facing,
            Mood = Position.Mood, Flags = Position.Flags, Tick = Position.Tick, Speed = Position.Speed,
        };
        var body = MessageBytes.Encode(big);

        Assert.Equal(!BitConverter.IsLittleEndian, IsBlock<BlockPositionBig>());
        Assert.Equal(FieldByField(Position, Endianness.Big), body);
        Assert.Equal(big, MessageBytes.Decode<BlockPositionBig>(body));
    }

    [Fact]
    public void A_struct_declared_in_another_order_than_its_wire_order_is_written_field_by_field()
    {
        var body = MessageBytes.Encode(new ReorderedPair { First = 1, Second = 2 });

        Assert.False(IsBlock<ReorderedPair>());
        Assert.Equal(new byte[] { 1, 0, 0, 0, 2, 0, 0, 0 }, body);
        Assert.Equal(new ReorderedPair { First = 1, Second = 2 }, MessageBytes.Decode<ReorderedPair>(body));
    }

    [Fact]
    public void A_body_shorter_than_the_block_reads_the_fields_it_has_and_a_longer_one_leaves_the_rest()
    {
        var full = FieldByField(Position, Endianness.Little);
        byte[] longer = [.. full, 1, 2, 3];

        var older = MessageBytes.Decode<BlockPosition>(full.AsSpan(0, 8));
        var newer = MessageBytes.Decode<BlockPosition>(longer);

        Assert.Equal(new BlockPosition { Id = Position.Id, X = Position.X }, older);
        Assert.Equal(Position, newer);
    }

    [Fact]
    public void Collections_of_fixed_width_elements_have_the_bytes_of_their_elements_in_both_byte_orders()
    {
        var runs = Runs();
        var big = new PrimitiveRunsBig
        {
            Ints = runs.Ints, Shorts = runs.Shorts, Doubles = runs.Doubles, Directions = runs.Directions, Letters = runs.Letters,
            Longs = runs.Longs, Floats = runs.Floats, Signed = runs.Signed, Rights = runs.Rights,
        };

        var little = MessageBytes.Encode(runs);
        var bigBody = MessageBytes.Encode(big);

        Assert.Equal(ElementByElement(runs, Endianness.Little), little);
        Assert.Equal(ElementByElement(runs, Endianness.Big), bigBody);
        AssertSameRuns(runs, MessageBytes.Decode<PrimitiveRuns>(little));
        AssertSameRuns(runs, MessageBytes.Decode<PrimitiveRuns>(Segments.OneBytePerSegment(little)));
        AssertSameRuns(runs, AsLittle(MessageBytes.Decode<PrimitiveRunsBig>(bigBody)));
        AssertSameRuns(runs, AsLittle(MessageBytes.Decode<PrimitiveRunsBig>(Segments.OneBytePerSegment(bigBody))));
    }

    public static TheoryData<string> Strings => new()
    {
        string.Empty,
        "a",
        "player-with-a-long-name!",
        new string('€', 41),
        new string('€', 42),
        new string('x', 127),
        new string('€', 5000),
        "lone \uD800 surrogate",
        "pair \uD83D\uDE00",
    };

    [Theory]
    [MemberData(nameof(Strings))]
    public void A_string_encoded_in_place_has_the_bytes_of_its_count_then_its_encoding(string text)
    {
        var utf8 = Encoding.UTF8.GetBytes(text);
        foreach (var prefix in new[] { StringLengthPrefix.VarInt, StringLengthPrefix.UInt16 })
        {
            foreach (var order in new[] { Endianness.Little, Endianness.Big })
            {
                // A writer with room for any encoding, one that must ask for room first, and one with too little room.
                foreach (var (capacity, before) in new[] { (64 * 1024, 4), (1, 0), (1, 4) })
                {
                    var output = new ArrayBufferWriter<byte>(capacity);
                    var writer = new PacketWriter(output, order);
                    writer.WriteBytes(new byte[before]);
                    writer.WriteUtf8(text, prefix);
                    writer.Flush();

                    var expected = new ArrayBufferWriter<byte>();
                    var counted = new PacketWriter(expected, order);
                    counted.WriteBytes(new byte[before]);
                    if (prefix == StringLengthPrefix.VarInt)
                    {
                        counted.WriteVarUInt32((uint)utf8.Length);
                    }
                    else
                    {
                        counted.WriteUInt16((ushort)utf8.Length);
                    }

                    counted.WriteBytes(utf8);
                    counted.Flush();
                    Assert.Equal(expected.WrittenSpan.ToArray(), output.WrittenSpan.ToArray());

                    var body = output.WrittenMemory[before..];
                    var reader = new PacketReader(body.Span, order);
                    Assert.Equal(Encoding.UTF8.GetString(utf8), reader.ReadUtf8(prefix));
                    Assert.Equal(0, reader.Remaining);
                    var segmented = new PacketReader(Segments.OneBytePerSegment(body), order);
                    Assert.Equal(Encoding.UTF8.GetString(utf8), segmented.ReadUtf8(prefix));
                }
            }
        }
    }

    [Fact]
    public void Invalid_utf8_in_one_span_is_refused_and_consumes_nothing()
    {
        byte[] body = [3, (byte)'a', 0xC3, 0x28];
        var reader = new PacketReader(body);

        Assert.False(reader.TryReadUtf8(out _, StringLengthPrefix.VarInt));
        Assert.Equal(0, reader.Consumed);
    }

    private static bool IsBlock<T>() =>
        (bool)typeof(T).GetField("BerthIsBlock", BindingFlags.NonPublic | BindingFlags.Static)?.GetValue(null)!;

    private static byte[] FieldByField(in BlockPosition value, Endianness order)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output, order);
        writer.WriteInt32(value.Id);
        writer.WriteSingle(value.X);
        writer.WriteInt16(value.Layer);
        writer.WriteUInt16(value.Letter);
        writer.WriteByte((byte)value.Facing);
        writer.WriteSByte(value.Mood);
        writer.WriteUInt16(value.Flags);
        writer.WriteInt64(value.Tick);
        writer.WriteDouble(value.Speed);
        writer.Flush();
        return output.WrittenSpan.ToArray();
    }

    private static PrimitiveRuns Runs() => new()
    {
        Ints = [1, -2, int.MaxValue, int.MinValue],
        Shorts = [-3, 4, short.MaxValue],
        Doubles = [1.5, double.MinValue, double.Epsilon],
        Directions = [Direction.West, Direction.North, Direction.East],
        Letters = ['a', 'é', '€'],
        Longs = [ulong.MaxValue, 5, 1UL << 40],
        Floats = [float.Epsilon, -1e30f],
        Signed = [-128, 127, 0],
        Rights = [Rights.Admin, Rights.Read, Rights.None],
    };

    private static byte[] ElementByElement(PrimitiveRuns runs, Endianness order)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output, order);
        writer.WriteVarUInt32((uint)runs.Ints.Length);
        foreach (var value in runs.Ints)
        {
            writer.WriteInt32(value);
        }

        writer.WriteVarUInt32((uint)runs.Shorts.Count);
        foreach (var value in runs.Shorts)
        {
            writer.WriteInt16(value);
        }

        writer.WriteVarUInt32((uint)runs.Doubles.Length);
        foreach (var value in runs.Doubles)
        {
            writer.WriteDouble(value);
        }

        writer.WriteVarUInt32((uint)runs.Directions.Count);
        foreach (var value in runs.Directions)
        {
            writer.WriteByte((byte)value);
        }

        writer.WriteVarUInt32((uint)runs.Letters.Length);
        foreach (var value in runs.Letters)
        {
            writer.WriteUInt16(value);
        }

        writer.WriteVarUInt32((uint)runs.Longs.Count);
        foreach (var value in runs.Longs)
        {
            writer.WriteUInt64(value);
        }

        writer.WriteVarUInt32((uint)runs.Floats.Length);
        foreach (var value in runs.Floats)
        {
            writer.WriteSingle(value);
        }

        writer.WriteVarUInt32((uint)runs.Signed.Length);
        foreach (var value in runs.Signed)
        {
            writer.WriteSByte(value);
        }

        writer.WriteVarUInt32((uint)runs.Rights.Count);
        foreach (var value in runs.Rights)
        {
            writer.WriteInt64((long)value);
        }

        writer.Flush();
        return output.WrittenSpan.ToArray();
    }

    private static PrimitiveRuns AsLittle(PrimitiveRunsBig big) => new()
    {
        Ints = big.Ints, Shorts = big.Shorts, Doubles = big.Doubles, Directions = big.Directions, Letters = big.Letters,
        Longs = big.Longs, Floats = big.Floats, Signed = big.Signed, Rights = big.Rights,
    };

    private static void AssertSameRuns(PrimitiveRuns expected, PrimitiveRuns actual)
    {
        Assert.Equal(expected.Ints, actual.Ints);
        Assert.Equal(expected.Shorts, actual.Shorts);
        Assert.Equal(expected.Doubles, actual.Doubles);
        Assert.Equal(expected.Directions, actual.Directions);
        Assert.Equal(expected.Letters, actual.Letters);
        Assert.Equal(expected.Longs, actual.Longs);
        Assert.Equal(expected.Floats, actual.Floats);
        Assert.Equal(expected.Signed, actual.Signed);
        Assert.Equal(expected.Rights, actual.Rights);
    }
}
