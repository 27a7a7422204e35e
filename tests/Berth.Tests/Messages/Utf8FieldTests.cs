using System.Buffers;
using Berth.Messages;
using Berth.Tests.Support;

namespace Berth.Tests.Messages;

/// <summary>A <see cref="Utf8Field"/> is a string on the wire and a view of the frame in memory.</summary>
public sealed class Utf8FieldTests
{
    [Fact]
    public void A_view_field_and_a_string_field_encode_the_same_bytes_both_ways()
    {
        var asView = MessageBytes.Encode(new SayView { Room = 3, Text = new Utf8Field("héllo, wörld"u8.ToArray()) });
        var asText = MessageBytes.Encode(new SayText(3, "héllo, wörld"));

        Assert.Equal(asText, asView);
        Assert.Equal("héllo, wörld", MessageBytes.Decode<SayText>(asView).Text);
        var view = MessageBytes.Decode<SayView>(asText);
        Assert.True(view.Text.Equals("héllo, wörld"u8));
        Assert.Equal("héllo, wörld", view.Text.ToString());
        Assert.Equal("héllo, wörld"u8.Length, view.Text.ByteCount);
    }

    [Fact]
    public void A_field_split_inside_a_character_across_segments_reads_without_allocating()
    {
        var body = MessageBytes.Encode(new SayText(1, "ünïcödé text that straddles"));
        var whole = MessageBytes.Decode<SayView>(new ReadOnlySequence<byte>(body));

        // Cut inside the two-byte 'ü' (body: 4-byte room, 1-byte count, then the text) and again further on.
        var split = Segments.Split(body, 6, 9, 20);
        var read = MessageBytes.Decode<SayView>(split);
        var before = GC.GetAllocatedBytesForCurrentThread();
        read = MessageBytes.Decode<SayView>(split);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(0, allocated);
        Assert.False(read.Text.Utf8Bytes.IsSingleSegment);
        Assert.True(read.Text.Equals(whole.Text));
        Assert.Equal(whole.Text.GetHashCode(), read.Text.GetHashCode());
        Assert.Equal("ünïcödé text that straddles", read.Text.ToString());
    }

    [Theory]
    [InlineData(0, 0)]
    [InlineData(1, 3)]
    [InlineData(127, 0)]
    [InlineData(128, 5)]
    [InlineData(200, 1)]
    [InlineData(16_383, 7)]
    [InlineData(16_384, 2)]
    [InlineData(70_000, 0)]
    public void A_view_of_any_length_read_from_a_run_of_a_larger_array_is_its_bytes_and_the_next_field_follows(int length, int offset)
    {
        // One-, two- and three-byte counts: the first two are read inline from the array run, the third the general way.
        var text = new string('é', length / 2) + new string('a', length % 2);
        var body = MessageBytes.Encode(new ViewThenTail { Text = new Utf8Field(System.Text.Encoding.UTF8.GetBytes(text)), Tail = -7 });
        var array = new byte[offset + body.Length + 3];
        body.CopyTo(array, offset);

        var read = MessageBytes.Decode<ViewThenTail>(new ReadOnlySequence<byte>(array, offset, body.Length));

        Assert.Equal(length, read.Text.ByteCount);
        Assert.Equal(text, read.Text.ToString());
        Assert.Equal(-7, read.Tail);
    }

    [Fact]
    public void Bytes_that_are_not_utf8_are_malformed_at_the_field()
    {
        byte[] body = [1, 0, 0, 0, 2, 0xC3, 0x28];

        var error = MessageBytes.Reject<SayView>(body);

        Assert.Equal(("SayView.Text", 4L, MessageFault.Malformed), (error.Field, error.Offset, error.Fault));
    }

    [Fact]
    public void A_length_past_the_body_is_truncated_at_the_field()
    {
        byte[] body = [1, 0, 0, 0, 9, (byte)'h', (byte)'i'];

        var error = MessageBytes.Reject<SayView>(body);

        Assert.Equal(("SayView.Text", 4L, MessageFault.Truncated), (error.Field, error.Offset, error.Fault));
    }

    [Theory]
    [InlineData(new byte[] { 1, 0, 0, 0, 2, 0xC3, 0x28 }, MessageFault.Malformed)]
    [InlineData(new byte[] { 1, 0, 0, 0, 9, (byte)'h', (byte)'i' }, MessageFault.Truncated)]
    [InlineData(new byte[] { 1, 0, 0, 0, 0x80, 0x01, (byte)'h' }, MessageFault.Truncated)]
    public void A_rejected_field_in_a_run_of_a_larger_array_is_rejected_at_the_field(byte[] body, MessageFault fault)
    {
        var array = new byte[body.Length + 8];
        body.CopyTo(array, 5);

        var error = Assert.Throws<MessageFormatException>(() => MessageBytes.Decode<SayView>(new ReadOnlySequence<byte>(array, 5, body.Length)));

        Assert.Equal(("SayView.Text", 4L, fault), (error.Field, error.Offset, error.Fault));
    }

    [Fact]
    public void An_unset_field_is_the_empty_string()
    {
        var read = MessageBytes.Decode<SayView>(MessageBytes.Encode(new SayView { Room = 1 }));

        Assert.True(read.Text.IsEmpty);
        Assert.Equal(string.Empty, read.Text.ToString());
    }

    [Fact]
    public void A_field_to_send_refuses_bytes_that_are_not_utf8() =>
        Assert.Throws<ArgumentException>(() => new Utf8Field(new byte[] { 0xFF }));
}
