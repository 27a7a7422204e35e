using System.Buffers;
using Berth.Buffers;
using Berth.Messages;

namespace Berth.Tests.Messages;

/// <summary>
/// <see cref="MessageWriting.Write{TMessage}"/> and <see cref="MessageReading.Read{TMessage}"/>: a block contract is one
/// span, one copy and one advance, and reads as one copy only when the body is exactly the block; every other body and
/// every other contract goes through the fields with the same bytes, defaults, bound and faults as
/// <see cref="IMessage{TSelf}.Write"/> and <see cref="IMessage{TSelf}.Read"/>.
/// </summary>
public class TopLevelBodyTests
{
    private static readonly BlockPosition Position = new()
    {
        Id = -123_456_789, X = 1.5f, Layer = -300, Letter = '€', Facing = Direction.South, Mood = -7, Flags = 0xBEEF,
        Tick = 9_876_543_210_123, Speed = -0.25,
    };

    [Fact]
    public void A_block_is_one_span_asked_for_its_size_and_one_advance_with_the_bytes_of_its_fields()
    {
        var output = new CountingBufferWriter();

        MessageWriting.Write(output, Position);

        Assert.Equal(BitConverter.IsLittleEndian ? BlockPosition.SizeHint : 0, BlockSizeOf<BlockPosition>());
        Assert.Equal(MessageBytes.Encode(Position), output.Written.WrittenSpan.ToArray());
        Assert.Equal(1, output.Advances);
        if (BitConverter.IsLittleEndian)
        {
            Assert.Equal([BlockPosition.SizeHint], output.SizesAsked);
        }

        Assert.Equal(Position, MessageReading.Read<BlockPosition>(output.Written.WrittenSpan));
    }

    [Fact]
    public void A_contract_in_the_other_byte_order_is_no_block_and_has_the_bytes_of_its_fields()
    {
        var big = new BlockPositionBig { Id = Position.Id, X = Position.X, Letter = Position.Letter, Tick = Position.Tick, Speed = Position.Speed };
        var output = new ArrayBufferWriter<byte>();

        MessageWriting.Write(output, big);

        Assert.Equal(BitConverter.IsLittleEndian ? 0 : BlockPosition.SizeHint, BlockSizeOf<BlockPositionBig>());
        Assert.Equal(MessageBytes.Encode(big), output.WrittenSpan.ToArray());
        Assert.Equal(big, MessageReading.Read<BlockPositionBig>(output.WrittenSpan));
    }

    [Fact]
    public void Contracts_that_are_no_block_write_and_read_the_bytes_of_their_fields()
    {
        var pair = new ReorderedPair { First = 1, Second = 2 };
        var profile = new ProfileV2 { Level = 3, Name = "twelve chars", Score = 4, Badges = [1, 2, 3] };
        var output = new ArrayBufferWriter<byte>();

        MessageWriting.Write(output, pair);
        var pairBytes = output.WrittenSpan.ToArray();
        output.ResetWrittenCount();
        MessageWriting.Write(output, profile);
        var read = MessageReading.Read<ProfileV2>(output.WrittenSpan);

        Assert.Equal(0, BlockSizeOf<ReorderedPair>());
        Assert.Equal(0, BlockSizeOf<ProfileV2>());
        Assert.Equal(MessageBytes.Encode(pair), pairBytes);
        Assert.Equal(pair, MessageReading.Read<ReorderedPair>(pairBytes));
        Assert.Equal(MessageBytes.Encode(profile), output.WrittenSpan.ToArray());
        Assert.Equal((profile.Level, profile.Name, profile.Score), (read.Level, read.Name, read.Score));
        Assert.Equal(profile.Badges, read.Badges);
        output.ResetWrittenCount();
        MessageWriting.Write(output, new Point(5, -6));
        Assert.Equal(0, BlockSizeOf<Point>());
        Assert.Equal(MessageBytes.Encode(new Point(5, -6)), output.WrittenSpan.ToArray());
        Assert.Equal(new Point(5, -6), MessageReading.Read<Point>(output.WrittenSpan));
    }

    [Fact]
    public void A_shorter_body_gives_the_missing_trailing_fields_their_defaults_and_a_longer_one_is_read_up_to_the_block()
    {
        var full = MessageBytes.Encode(Position);
        byte[] longer = [.. full, 1, 2, 3];

        Assert.Equal(new BlockPosition { Id = Position.Id, X = Position.X }, MessageReading.Read<BlockPosition>(full.AsSpan(0, 8)));
        Assert.Equal(Position, MessageReading.Read<BlockPosition>(longer));
        Assert.Equal(default, MessageReading.Read<BlockPosition>([]));
    }

    [Fact]
    public void A_body_ending_inside_a_field_is_truncated_at_that_field()
    {
        var full = MessageBytes.Encode(Position);

        var error = Assert.Throws<MessageFormatException>(() => MessageReading.Read<BlockPosition>(full.AsSpan(0, 6)));

        Assert.Equal(MessageFault.Truncated, error.Fault);
        Assert.Equal(4, error.Offset);
    }

    [Fact]
    public void A_body_over_the_bound_is_refused_before_the_block_is_read()
    {
        var body = new byte[SmallBlock.Bounds.MaxEncodedSize + 1];

        var error = Assert.Throws<MessageFormatException>(() => MessageReading.Read<SmallBlock>(body));

        Assert.Equal(BitConverter.IsLittleEndian ? 8 : 0, BlockSizeOf<SmallBlock>());
        Assert.Equal(MessageFault.SizeOverBound, error.Fault);
        Assert.True(MessageReading.TryRead<SmallBlock>(body.AsSpan(0, 8), out _, out _));
        Assert.False(MessageReading.TryRead<SmallBlock>(body, out _, out var tried));
        Assert.Equal(MessageFault.SizeOverBound, tried.Fault);
    }

    [Fact]
    public void A_block_wider_than_its_bound_is_no_block_and_every_write_is_refused()
    {
        var output = new ArrayBufferWriter<byte>();

        Assert.Equal(0, BlockSizeOf<BlockOverBound>());
        Assert.Throws<ArgumentException>(() => MessageWriting.Write(output, new BlockOverBound { A = 1, B = 2 }));
    }

    [Fact]
    public void An_output_that_gives_less_room_than_asked_is_refused_and_nothing_is_advanced()
    {
        var output = new CountingBufferWriter { Shortfall = 1 };

        Assert.Throws<InvalidOperationException>(() => MessageWriting.Write(output, Position));

        Assert.Equal(0, output.Advances);
        Assert.Equal(0, output.Written.WrittenCount);
    }

    [Fact]
    public void A_hand_written_contract_claiming_a_block_it_cannot_be_is_written_and_read_by_its_own_code()
    {
        var output = new ArrayBufferWriter<byte>();

        MessageWriting.Write(output, new HandWrittenClaim("x"));

        Assert.Equal([7], output.WrittenSpan.ToArray());
        Assert.Equal("read", MessageReading.Read<HandWrittenClaim>(output.WrittenSpan).Text);
    }

    [Fact]
    public void A_block_round_trip_through_the_top_level_entries_allocates_nothing()
    {
        var output = new ArrayBufferWriter<byte>(64);
        RoundTrips(output, 1000);

        var before = GC.GetAllocatedBytesForCurrentThread();
        RoundTrips(output, 10_000);

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    // A contract that keeps the default answers it only through the interface.
    private static int BlockSizeOf<T>()
        where T : IMessage<T> => T.BlockSize;

    private static long RoundTrips(ArrayBufferWriter<byte> output, int count)
    {
        long checksum = 0;
        for (var i = 0; i < count; i++)
        {
            output.ResetWrittenCount();
            MessageWriting.Write(output, new BlockPosition { Id = i, X = i, Tick = i, Speed = -i });
            checksum += MessageReading.Read<BlockPosition>(output.WrittenSpan).Tick;
        }

        return checksum;
    }

    /// <summary>An array buffer writer that counts what it is asked for, and can give less room than asked.</summary>
    private sealed class CountingBufferWriter : IBufferWriter<byte>
    {
        public ArrayBufferWriter<byte> Written { get; } = new();

        public List<int> SizesAsked { get; } = [];

        public int Advances { get; private set; }

        public int Shortfall { get; init; }

        public void Advance(int count)
        {
            Advances++;
            Written.Advance(count);
        }

        public Memory<byte> GetMemory(int sizeHint = 0) => throw new NotSupportedException();

        public Span<byte> GetSpan(int sizeHint = 0)
        {
            SizesAsked.Add(sizeHint);
            return Written.GetSpan(sizeHint)[..Math.Max(0, sizeHint - Shortfall)];
        }
    }
}

/// <summary>A block with a small bound, so a body over it is easy to build.</summary>
[Message(55, MaxEncodedSize = 16)]
public partial struct SmallBlock
{
    [Field(0)] public int A;
    [Field(1)] public int B;
}

/// <summary>Laid out as its wire form, but wider than its bound: every value is refused on writing.</summary>
[Message(56, MaxEncodedSize = 4)]
public partial struct BlockOverBound
{
    [Field(0)] public int A;
    [Field(1)] public int B;
}

/// <summary>A hand-written contract holding a reference that claims a block anyway: the entries must not copy its memory.</summary>
public readonly struct HandWrittenClaim(string text) : IMessage<HandWrittenClaim>
{
    public string Text { get; } = text;

    public static int MessageId => 1103;

    public static Endianness ByteOrder => Endianness.Little;

    public static MessageBounds Bounds => new(16, 1, 1);

    public static int SizeHint => 1;

    public static int BlockSize => 8;

    public static void Write(ref PacketWriter writer, in HandWrittenClaim message) => writer.WriteByte(7);

    public static HandWrittenClaim Read(ref PacketReader reader) => new("read");

    public static void WriteEmbedded(ref PacketWriter writer, in HandWrittenClaim message, int depth, int maxDepth) => Write(ref writer, message);

    public static HandWrittenClaim ReadEmbedded(ref PacketReader reader, int depth, int maxDepth) => Read(ref reader);
}
