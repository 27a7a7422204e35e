using System.Buffers.Binary;
using Berth.Buffers;
using Berth.Messages;
using Berth.Tests.Support;

namespace Berth.Tests.Messages;

/// <summary>Every field type survives a write and a read, at its bounds, over one span and over one byte per segment.</summary>
public class RoundTripTests
{
    public static TheoryData<Scalars> ScalarBounds => new()
    {
        new Scalars(
            byte.MinValue, sbyte.MinValue, false, short.MinValue, ushort.MinValue, char.MinValue, int.MinValue, uint.MinValue,
            long.MinValue, ulong.MinValue, float.MinValue, double.MinValue, decimal.MinValue, Guid.Empty, DateTime.MinValue,
            TimeSpan.MinValue, Rights.None),
        new Scalars(
            byte.MaxValue, sbyte.MaxValue, true, short.MaxValue, ushort.MaxValue, char.MaxValue, int.MaxValue, uint.MaxValue,
            long.MaxValue, ulong.MaxValue, float.MaxValue, double.MaxValue, decimal.MaxValue, Guid.AllBitsSet,
            DateTime.SpecifyKind(DateTime.MaxValue, DateTimeKind.Local), TimeSpan.MaxValue, Rights.Read | Rights.Admin),
        new Scalars(
            7, -7, true, -300, 300, 'é', -70000, 70000, -1L << 40, 1UL << 63, float.NaN, double.NegativeInfinity, -123.4567m,
            Guid.Parse("00112233-4455-6677-8899-aabbccddeeff"), new DateTime(2026, 11, 24, 6, 0, 0, DateTimeKind.Utc),
            TimeSpan.FromTicks(-1), (Rights)0x7F),
    };

    [Theory]
    [MemberData(nameof(ScalarBounds))]
    public void Every_scalar_type_round_trips_at_its_bounds(Scalars value)
    {
        var body = MessageBytes.Encode(value);

        Assert.Equal(value, MessageBytes.Decode<Scalars>(body));
        Assert.Equal(value, MessageBytes.Decode<Scalars>(Segments.OneBytePerSegment(body)));
        Assert.Equal(Scalars.SizeHint, body.Length);
    }

    [Fact]
    public void A_big_endian_contract_writes_big_endian_fields_and_an_rfc_4122_guid()
    {
        var guid = Guid.Parse("00112233-4455-6677-8899-aabbccddeeff");
        var body = MessageBytes.Encode(new Scalars { I16 = 0x0102, I32 = 0x01020304, Id = guid });

        Assert.Equal(0x0102, BinaryPrimitives.ReadInt16BigEndian(body.AsSpan(3)));
        Assert.Equal(0x01020304, BinaryPrimitives.ReadInt32BigEndian(body.AsSpan(9)));
        Assert.Equal(Convert.FromHexString("00112233445566778899AABBCCDDEEFF"), body.AsSpan(61, 16).ToArray());
        Assert.Equal(Endianness.Big, Scalars.ByteOrder);
    }

    [Fact]
    public void A_little_endian_struct_is_its_fields_back_to_back()
    {
        var move = new Move { PlayerId = 0x01020304, X = 1.5f, Y = -2f, Facing = Direction.West, Tick = long.MaxValue };
        var body = MessageBytes.Encode(move);

        Assert.Equal(4 + 4 + 4 + 1 + 8, body.Length);
        Assert.Equal(Move.SizeHint, body.Length);
        Assert.Equal(0x01020304, BinaryPrimitives.ReadInt32LittleEndian(body));
        Assert.Equal((byte)Direction.West, body[12]);
        Assert.Equal(move, MessageBytes.Decode<Move>(body));
        Assert.Equal(1, Move.MessageId);
    }

    [Fact]
    public void Empty_strings_collections_and_absent_optionals_round_trip()
    {
        var empty = new Chat();
        var body = MessageBytes.Encode(empty);
        var read = MessageBytes.Decode<Chat>(body);

        AssertSame(empty, read);
        Assert.Null(read.Nick);
        Assert.Null(read.Maybe);
        Assert.Null(read.Count);
        Assert.Null(read.Optional);
        Assert.Null(read.Where);
        Assert.Same(Array.Empty<int>(), read.Numbers);
    }

    [Fact]
    public void Full_collections_at_the_count_bound_and_present_optionals_round_trip()
    {
        var full = FullChat(Chat.Bounds.MaxCollectionCount);
        var body = MessageBytes.Encode(full);

        AssertSame(full, MessageBytes.Decode<Chat>(body));
        AssertSame(full, MessageBytes.Decode<Chat>(Segments.OneBytePerSegment(body)));
    }

    [Fact]
    public void A_string_as_long_as_the_size_bound_allows_round_trips()
    {
        // Small's bound is 16 bytes: one byte of length and 15 of text.
        var longest = new Small { Text = new string('x', 15) };

        Assert.Equal(longest.Text, MessageBytes.Decode<Small>(MessageBytes.Encode(longest)).Text);
        Assert.Throws<ArgumentException>(() => MessageBytes.Encode(new Small { Text = new string('x', 16) }));
    }

    [Fact]
    public void A_contract_with_readonly_members_is_read_through_its_constructor()
    {
        var pair = new Pair(-5, "right");

        var read = MessageBytes.Decode<Pair>(MessageBytes.Encode(pair));

        Assert.Equal(-5, read.Left);
        Assert.Equal("right", read.Right);
    }

    [Fact]
    public void Nested_messages_within_the_depth_bound_round_trip()
    {
        var chain = new Node { Value = 1, Next = new Node { Value = 2, Next = new Node { Value = 3, Next = new Node { Value = 4, Next = new Node { Value = 5 } } } } };

        var read = MessageBytes.Decode<Node>(MessageBytes.Encode(chain));

        Assert.Equal(5, read.Next!.Next!.Next!.Next!.Value);
        Assert.Null(read.Next.Next.Next.Next.Next);
    }

    [Fact]
    public void A_writer_or_reader_in_the_other_byte_order_is_refused()
    {
        var output = new System.Buffers.ArrayBufferWriter<byte>();

        Assert.Throws<ArgumentException>(() =>
        {
            var writer = new PacketWriter(output, Endianness.Big);
            Move.Write(ref writer, default);
        });
        Assert.Throws<ArgumentException>(() =>
        {
            var reader = new PacketReader(new byte[21], Endianness.Big);
            Move.Read(ref reader);
        });
    }

    internal static Chat FullChat(int count) => new()
    {
        Text = "héllo wörld €",
        Nick = "",
        Blob = Enumerable.Range(0, 300).Select(i => (byte)i).ToArray(),
        Memory = new byte[] { 1, 2, 3 },
        Numbers = Enumerable.Range(-count / 2, count).ToArray(),
        Tags = Enumerable.Range(0, count).Select(i => new string('t', i % 5)).ToList(),
        Last = new Move { PlayerId = 9, X = 1, Y = 2, Facing = Direction.South, Tick = 3 },
        Maybe = new Move { PlayerId = -1 },
        Count = 0,
        Path = Enumerable.Range(0, count).Select(i => new Move { PlayerId = i, Tick = i * 10L }).ToList(),
        Optional = ["a", null, "😀"],
        Session = Guid.NewGuid(),
        Heading = Direction.East,
        Where = new Point(-1, int.MaxValue),
    };

    internal static void AssertSame(Chat expected, Chat actual)
    {
        Assert.Equal(expected.Text, actual.Text);
        Assert.Equal(expected.Nick, actual.Nick);
        Assert.Equal(expected.Blob, actual.Blob);
        Assert.Equal(expected.Memory.ToArray(), actual.Memory.ToArray());
        Assert.Equal(expected.Numbers, actual.Numbers);
        Assert.Equal(expected.Tags, actual.Tags);
        Assert.Equal(expected.Last, actual.Last);
        Assert.Equal(expected.Maybe, actual.Maybe);
        Assert.Equal(expected.Count, actual.Count);
        Assert.Equal(expected.Path, actual.Path);
        Assert.Equal(expected.Optional, actual.Optional);
        Assert.Equal(expected.Session, actual.Session);
        Assert.Equal(expected.Heading, actual.Heading);
        Assert.Equal(expected.Where, actual.Where);
    }
}
