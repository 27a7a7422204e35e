using System.Buffers;
using Berth.Buffers;
using Berth.Framing;
using Berth.Tests.Support;

namespace Berth.Tests.Framing;

/// <summary>Every way of writing a frame refuses a body outside the format's bounds with the same exception.</summary>
public class BodyLengthLimitTests
{
    private static readonly LengthFieldFormat Bounded = new(minBodyLength: 2, maxBodyLength: 8);

    public static TheoryData<int> OutOfBounds => [0, 1, 9, 100];

    [Theory]
    [MemberData(nameof(OutOfBounds))]
    public void The_encoder_refuses_a_span_body_and_writes_nothing(int length)
    {
        var output = new ArrayBufferWriter<byte>();
        var exception = Assert.Throws<ArgumentOutOfRangeException>(() => new FrameEncoder(Bounded).WriteFrame(output, new byte[length]));
        Assert.Equal("body", exception.ParamName);
        Assert.Equal(0, output.WrittenCount);
    }

    [Theory]
    [MemberData(nameof(OutOfBounds))]
    public void The_encoder_refuses_a_segmented_body_and_writes_nothing(int length)
    {
        var output = new ArrayBufferWriter<byte>();
        var body = Segments.OneBytePerSegment(new byte[length]);
        var exception = Assert.Throws<ArgumentOutOfRangeException>(() => new FrameEncoder(Bounded).WriteFrame(output, body));
        Assert.Equal("body", exception.ParamName);
        Assert.Equal(0, output.WrittenCount);
    }

    [Theory]
    [MemberData(nameof(OutOfBounds))]
    public void The_header_writer_refuses_the_length(int length)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => Bounded.WriteHeader(new byte[4], length));
    }

    [Theory]
    [MemberData(nameof(OutOfBounds))]
    public void A_backfilled_length_is_refused(int length)
    {
        using var output = new PooledBufferWriter();
        var exception = Assert.Throws<ArgumentOutOfRangeException>(() =>
        {
            var writer = new PacketWriter(output);
            var reservation = writer.ReserveLength(Bounded);
            writer.WriteBytes(new byte[length]);
            writer.BackfillLength(reservation);
        });
        Assert.Equal("body", exception.ParamName);
    }

    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    public void Bodies_at_the_bounds_are_written(int length)
    {
        var output = new ArrayBufferWriter<byte>();
        new FrameEncoder(Bounded).WriteFrame(output, new byte[length]);
        Assert.Equal(4 + length, output.WrittenCount);
    }
}
