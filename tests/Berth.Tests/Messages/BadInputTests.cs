using System.Buffers.Binary;
using Berth.Messages;

namespace Berth.Tests.Messages;

/// <summary>Malformed, truncated and oversized bodies are rejected with the field, its offset and a named fault.</summary>
public class BadInputTests
{
    [Fact]
    public void Every_truncation_of_a_body_reads_at_a_field_boundary_or_fails_with_a_named_fault()
    {
        var body = MessageBytes.Encode(RoundTripTests.FullChat(8));

        for (var length = 0; length < body.Length; length++)
        {
            try
            {
                // Cut at a field boundary of the outermost message, the body is an older writer's: it reads.
                MessageBytes.Decode<Chat>(body.AsSpan(0, length));
            }
            catch (MessageFormatException e)
            {
                Assert.InRange(e.Offset, 0, length);
                Assert.Matches("^(Chat|Move|Point)\\.", e.Field);
                Assert.True(e.Fault is MessageFault.Truncated or MessageFault.CountOverBound, $"{length}: {e.Message}");
            }
        }
    }

    [Fact]
    public void A_boolean_other_than_0_or_1_is_malformed()
    {
        var body = MessageBytes.Encode(new Scalars { Flag = true });
        body[2] = 2;

        var error = MessageBytes.Reject<Scalars>(body);

        Assert.Equal((MessageFault.Malformed, "Scalars.Flag", 2L), (error.Fault, error.Field, error.Offset));
    }

    [Fact]
    public void A_presence_byte_other_than_0_or_1_is_malformed()
    {
        var body = MessageBytes.Encode(new Node { Value = 1 });
        body[4] = 7;

        var error = MessageBytes.Reject<Node>(body);

        Assert.Equal((MessageFault.Malformed, "Node.Next", 4L), (error.Fault, error.Field, error.Offset));
    }

    [Fact]
    public void A_date_with_an_unknown_kind_and_a_decimal_with_impossible_flags_are_malformed()
    {
        var body = MessageBytes.Encode(new Scalars());
        body[61 + 16] = 0xC0;
        Assert.Equal((MessageFault.Malformed, "Scalars.At"), Describe(MessageBytes.Reject<Scalars>(body)));

        body = MessageBytes.Encode(new Scalars());
        BinaryPrimitives.WriteInt32BigEndian(body.AsSpan(45 + 12), 29 << 16);
        Assert.Equal((MessageFault.Malformed, "Scalars.Money"), Describe(MessageBytes.Reject<Scalars>(body)));
    }

    [Fact]
    public void Invalid_utf8_is_malformed()
    {
        var body = MessageBytes.Encode(new ProfileV1 { Level = 1, Name = "ab" });
        body[5] = 0xFF;

        var error = MessageBytes.Reject<ProfileV1>(body);

        Assert.Equal((MessageFault.Malformed, "ProfileV1.Name", 4L), (error.Fault, error.Field, error.Offset));
    }

    [Fact]
    public void A_string_length_beyond_the_body_is_truncated_not_read_past()
    {
        byte[] body = [1, 0, 0, 0, 0xFF, 0xFF, 0x03, (byte)'a'];

        var error = MessageBytes.Reject<ProfileV1>(body);

        Assert.Equal((MessageFault.Truncated, "ProfileV1.Name", 4L), (error.Fault, error.Field, error.Offset));
    }

    [Fact]
    public void A_length_varint_longer_than_five_bytes_is_malformed()
    {
        byte[] body = [1, 0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];

        Assert.Equal(MessageFault.Malformed, MessageBytes.Reject<ProfileV1>(body).Fault);
    }

    [Fact]
    public void A_collection_count_over_the_contract_bound_is_refused_before_anything_is_allocated()
    {
        // The elements are there too, so only the bound can refuse the count.
        var count = Chat.Bounds.MaxCollectionCount + 1;
        byte[] body = [.. CountAt(count), .. new byte[count * sizeof(int)]];

        var error = MessageBytes.Reject<Chat>(body);

        Assert.Equal((MessageFault.CountOverBound, "Chat.Numbers"), Describe(error));
        Assert.Equal(4, error.Offset);
        Assert.Contains("over the bound of 64", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_collection_count_the_remaining_bytes_cannot_hold_is_refused()
    {
        var body = CountAt(10);

        var error = MessageBytes.Reject<Chat>(body);

        Assert.Equal((MessageFault.CountOverBound, "Chat.Numbers"), Describe(error));
        Assert.Contains("bytes left", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_body_larger_than_the_contract_bound_is_refused_before_decoding()
    {
        var body = new byte[Small.Bounds.MaxEncodedSize + 1];

        var error = MessageBytes.Reject<Small>(body);

        Assert.Equal((MessageFault.SizeOverBound, "Small", 0L), (error.Fault, error.Field, error.Offset));
    }

    [Fact]
    public void Nesting_deeper_than_the_outermost_bound_is_refused_on_both_sides()
    {
        var tooDeep = new Node { Value = 0 };
        for (var i = 1; i <= Node.Bounds.MaxDepth + 1; i++)
        {
            tooDeep = new Node { Value = i, Next = tooDeep };
        }

        Assert.Throws<ArgumentException>(() => MessageBytes.Encode(tooDeep));

        // The same chain by hand: value, presence 1, value, presence 1, ... then presence 0.
        var body = new List<byte>();
        for (var i = 0; i <= Node.Bounds.MaxDepth + 1; i++)
        {
            body.AddRange(BitConverter.GetBytes(i));
            body.Add(1);
        }

        body.AddRange(BitConverter.GetBytes(0));
        body.Add(0);
        var error = MessageBytes.Reject<Node>(body.ToArray());
        Assert.Equal((MessageFault.DepthOverBound, "Node"), Describe(error));
    }

    [Fact]
    public void The_writer_refuses_a_null_in_a_non_nullable_member_and_a_collection_over_the_bound()
    {
        var error = Assert.Throws<ArgumentException>(() => MessageBytes.Encode(new ProfileV1 { Name = null! }));
        Assert.Contains("ProfileV1.Name", error.Message, StringComparison.Ordinal);

        var tooMany = new Chat { Numbers = new int[Chat.Bounds.MaxCollectionCount + 1] };
        Assert.Contains("Chat.Numbers", Assert.Throws<ArgumentException>(() => MessageBytes.Encode(tooMany)).Message, StringComparison.Ordinal);
    }

    /// <summary>A Chat body whose fields up to Numbers are empty, then a count for Numbers and no elements.</summary>
    private static byte[] CountAt(int count)
    {
        var prefix = MessageBytes.Encode(new Chat());
        var numbersAt = 1 + 1 + 1 + 1;
        var varint = new List<byte>();
        var value = (uint)count;
        while (value >= 0x80)
        {
            varint.Add((byte)(value | 0x80));
            value >>= 7;
        }

        varint.Add((byte)value);
        return [.. prefix.AsSpan(0, numbersAt), .. varint];
    }

    private static (MessageFault, string) Describe(MessageFormatException error) => (error.Fault, error.Field);
}
