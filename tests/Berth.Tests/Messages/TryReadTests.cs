using System.Buffers;
using Berth.Messages;
using Berth.Tests.Support;

namespace Berth.Tests.Messages;

/// <summary><see cref="MessageReading.TryRead{TMessage}(ReadOnlySpan{byte}, out TMessage, out MessageFormatException)"/> answers with a bool.</summary>
public sealed class TryReadTests
{
    [Fact]
    public void A_valid_body_reads_from_a_span_and_from_a_sequence()
    {
        var move = new Move { PlayerId = 3, X = 1, Y = -1, Facing = Direction.West, Tick = 9 };
        var body = MessageBytes.Encode(move);

        Assert.True(MessageReading.TryRead<Move>(body, out var fromSpan, out var spanError));
        Assert.True(MessageReading.TryRead<Move>(new ReadOnlySequence<byte>(body), out var fromSequence, out var sequenceError));

        Assert.Equal((move, move), (fromSpan, fromSequence));
        Assert.Null(spanError);
        Assert.Null(sequenceError);
    }

    [Fact]
    public void A_truncated_body_is_false_with_the_field_offset_and_fault()
    {
        var body = MessageBytes.Encode(new Move { Tick = 1 });

        Assert.False(MessageReading.TryRead<Move>(body.AsSpan(0, body.Length - 1), out _, out var error));

        Assert.Equal(("Move.Tick", 13L, MessageFault.Truncated), (error.Field, error.Offset, error.Fault));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    [InlineData(-6)]
    [InlineData(-8)]
    [InlineData(5)]
    public void A_block_contract_in_one_segment_reads_as_over_a_span_and_over_one_byte_per_segment(int lengthChange)
    {
        var position = new BlockPosition { Id = 7, X = 0.5f, Layer = -2, Letter = 'q', Facing = Direction.East, Tick = 11, Speed = 2 };
        var whole = MessageBytes.Encode(position);
        var body = new byte[whole.Length + lengthChange];
        whole.AsSpan(0, Math.Min(whole.Length, body.Length)).CopyTo(body);

        (bool Read, BlockPosition Message, string? Field, long Offset, MessageFault Fault) fromSpan =
            MessageReading.TryRead<BlockPosition>(body.AsSpan(), out var message, out var error)
                ? (true, message, null, 0, default)
                : (false, default, error.Field, error.Offset, error.Fault);
        var fromOneSegment = Read(new ReadOnlySequence<byte>(body));
        var fromManySegments = Read(Segments.OneBytePerSegment(body));

        Assert.Equal(fromSpan, fromOneSegment);
        Assert.Equal(fromSpan, fromManySegments);
        Assert.Equal(lengthChange is 0 or -8 or 5, fromOneSegment.Read);
        if (lengthChange >= 0)
        {
            Assert.Equal(position, fromOneSegment.Message);
        }

        static (bool Read, BlockPosition Message, string? Field, long Offset, MessageFault Fault) Read(in ReadOnlySequence<byte> body) =>
            MessageReading.TryRead<BlockPosition>(body, out var message, out var error)
                ? (true, message, null, 0, default)
                : (false, default, error.Field, error.Offset, error.Fault);
    }

    [Fact]
    public void A_big_endian_contract_reads_in_its_own_order()
    {
        var scalars = new Scalars { I32 = 0x01020304, At = new DateTime(2026, 1, 2, 0, 0, 0, DateTimeKind.Utc) };

        Assert.True(MessageReading.TryRead<Scalars>(MessageBytes.Encode(scalars), out var read, out _));

        Assert.Equal(scalars, read);
    }
}
