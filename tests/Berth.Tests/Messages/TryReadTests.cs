using System.Buffers;
using Berth.Messages;

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

    [Fact]
    public void A_big_endian_contract_reads_in_its_own_order()
    {
        var scalars = new Scalars { I32 = 0x01020304, At = new DateTime(2026, 1, 2, 0, 0, 0, DateTimeKind.Utc) };

        Assert.True(MessageReading.TryRead<Scalars>(MessageBytes.Encode(scalars), out var read, out _));

        Assert.Equal(scalars, read);
    }
}
