using System.Buffers;
using Berth.Buffers;
using Berth.Framing;
using Berth.Tests.Support;

namespace Berth.Tests.Framing;

public class FrameDecoderTests
{
    public static TheoryData<string> Presets => new() { "Berth", "FastPortSharp", "Telepathy" };

    /// <summary>The shapes a decoder meets: an array run (the ring without a wrap) takes its own path, a chain the general one.</summary>
    public static TheoryData<string> Shapes => new() { "array run", "array run mid-array", "one segment", "one byte per segment" };

    public static TheoryData<int, byte[], FrameReadResult, string> MinimumCases()
    {
        var data = new TheoryData<int, byte[], FrameReadResult, string>();
        foreach (var shape in Shapes)
        {
            data.Add(1, [0, 0, 0, 0], FrameReadResult.Malformed, shape);
            data.Add(1, [0, 0, 0, 1, 7], FrameReadResult.Frame, shape);
            data.Add(3, [0, 0, 0, 2, 7, 7], FrameReadResult.Malformed, shape);
            data.Add(0, [0, 0, 0, 0], FrameReadResult.Frame, shape);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Presets))]
    public void Frames_split_at_every_offset_decode_to_the_same_bodies(string preset)
    {
        var format = Preset(preset);
        var bodies = new[] { Body(format.MinBodyLength), Body(1), Body(37), Body(300) };
        var stream = Encode(format, bodies);
        var decoder = new FrameDecoder(format);

        for (var cut = 0; cut <= stream.Length; cut++)
        {
            var buffer = Segments.Split(stream, cut, Math.Min(stream.Length, cut + 3));
            Assert.Equal(bodies, DecodeAll(decoder, ref buffer));
            Assert.True(buffer.IsEmpty);
        }
    }

    [Theory]
    [MemberData(nameof(Shapes))]
    public void Frames_in_every_shape_decode_to_the_same_bodies_and_leave_the_partial_rest(string shape)
    {
        foreach (var preset in new[] { "Berth", "FastPortSharp", "Telepathy" })
        {
            var format = Preset(preset);
            var bodies = new[] { Body(format.MinBodyLength), Body(1), Body(37), Body(300) };
            var partial = Encode(format, [Body(300)])[..(format.HeaderLength + 1)];
            var buffer = Shaped([.. Encode(format, bodies), .. partial], shape);
            Assert.Equal(bodies, DecodeAll(new FrameDecoder(format), ref buffer));
            Assert.Equal(partial, buffer.ToArray());
        }
    }

    [Theory]
    [MemberData(nameof(Presets))]
    public void Frames_fed_one_byte_at_a_time_decode_when_complete(string preset)
    {
        var format = Preset(preset);
        var bodies = new[] { Body(5), Body(format.MinBodyLength), Body(70) };
        var stream = Encode(format, bodies);
        var decoder = new FrameDecoder(format);
        var received = new List<byte>();
        var decoded = new List<byte[]>();

        foreach (var b in stream)
        {
            received.Add(b);
            var buffer = Segments.OneBytePerSegment(received.ToArray());
            var before = buffer.Length;
            decoded.AddRange(DecodeAll(decoder, ref buffer));
            received.RemoveRange(0, (int)(before - buffer.Length));
        }

        Assert.Equal(bodies, decoded);
        Assert.Empty(received);
    }

    [Theory]
    [MemberData(nameof(Shapes))]
    public void An_announced_length_over_the_maximum_is_too_large_and_consumes_nothing(string shape)
    {
        var decoder = new FrameDecoder(LengthFieldFormat.Berth);
        var buffer = Shaped([0x01, 0x00, 0x10, 0x00, 0xAA], shape);
        Assert.Equal(FrameReadResult.TooLarge, decoder.TryReadFrame(ref buffer, out _));
        Assert.Equal(5, buffer.Length);
    }

    [Theory]
    [MemberData(nameof(Shapes))]
    public void A_body_of_exactly_the_maximum_is_accepted(string shape)
    {
        var format = LengthFieldFormat.Berth.WithMaxBodyLength(10);
        var buffer = Shaped(Encode(format, [Body(10)]), shape);
        Assert.Equal(FrameReadResult.Frame, new FrameDecoder(format).TryReadFrame(ref buffer, out var body));
        Assert.Equal(Body(10), body.ToArray());
        Assert.True(buffer.IsEmpty);
    }

    [Theory]
    [MemberData(nameof(Shapes))]
    public void A_length_that_counts_less_than_its_own_header_is_malformed(string shape)
    {
        var decoder = new FrameDecoder(LengthFieldFormat.FastPortSharp);
        var buffer = Shaped([0x01, 0x00, 0xAA], shape);
        Assert.Equal(FrameReadResult.Malformed, decoder.TryReadFrame(ref buffer, out _));
    }

    [Theory]
    [MemberData(nameof(MinimumCases))]
    public void A_body_shorter_than_the_minimum_is_malformed_and_consumes_nothing(int minBody, byte[] stream, FrameReadResult expected, string shape)
    {
        var decoder = new FrameDecoder(new LengthFieldFormat(4, Endianness.Big, minBodyLength: minBody));
        var buffer = Shaped(stream, shape);
        Assert.Equal(expected, decoder.TryReadFrame(ref buffer, out _));
        Assert.Equal(expected == FrameReadResult.Frame ? 0 : stream.Length, buffer.Length);
    }

    [Fact]
    public void Presets_carry_their_real_peers_minimum_body()
    {
        Assert.Equal(0, LengthFieldFormat.Berth.MinBodyLength);
        Assert.Equal(0, LengthFieldFormat.FastPortSharp.MinBodyLength);
        Assert.Equal(1, LengthFieldFormat.Telepathy.MinBodyLength);
        Assert.Equal(1, LengthFieldFormat.Telepathy.WithMaxBodyLength(100).MinBodyLength);
        Assert.Throws<ArgumentOutOfRangeException>(() => new FrameEncoder(LengthFieldFormat.Telepathy).WriteFrame(new ArrayBufferWriter<byte>(), []));
        Assert.Throws<ArgumentOutOfRangeException>(() => new LengthFieldFormat(minBodyLength: -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new LengthFieldFormat(maxBodyLength: 10, minBodyLength: 11));
    }

    [Theory]
    [MemberData(nameof(Shapes))]
    public void A_partial_header_or_body_is_incomplete_and_consumes_nothing(string shape)
    {
        var decoder = new FrameDecoder(LengthFieldFormat.Berth);
        var header = Shaped([4, 0], shape);
        var body = Shaped([4, 0, 0, 0, 1, 2, 3], shape);
        Assert.Equal(FrameReadResult.Incomplete, decoder.TryReadFrame(ref header, out _));
        Assert.Equal(FrameReadResult.Incomplete, decoder.TryReadFrame(ref body, out _));
        Assert.Equal(7, body.Length);
    }

    [Fact]
    public void Presets_lay_out_their_headers_as_documented()
    {
        Assert.Equal(new byte[] { 3, 0, 0, 0, 1, 2, 3 }, Encode(LengthFieldFormat.Berth, [[1, 2, 3]]));
        Assert.Equal(new byte[] { 5, 0, 1, 2, 3 }, Encode(LengthFieldFormat.FastPortSharp, [[1, 2, 3]]));
        Assert.Equal(new byte[] { 0, 0, 0, 3, 1, 2, 3 }, Encode(LengthFieldFormat.Telepathy, [[1, 2, 3]]));
    }

    [Theory]
    [InlineData(3, 100)]
    [InlineData(2, 65_535)]
    [InlineData(4, -1)]
    public void Impossible_formats_are_refused(int width, int maxBody)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new LengthFieldFormat(width, Endianness.Little, lengthIncludesHeader: true, maxBody));
    }

    [Fact]
    public void The_encoder_writes_multi_segment_bodies_and_refuses_oversized_ones()
    {
        var encoder = new FrameEncoder(LengthFieldFormat.Berth.WithMaxBodyLength(8));
        var output = new ArrayBufferWriter<byte>();
        encoder.WriteFrame(output, Segments.Split(new byte[] { 1, 2, 3, 4 }, 2));
        Assert.Equal(new byte[] { 4, 0, 0, 0, 1, 2, 3, 4 }, output.WrittenSpan.ToArray());
        Assert.Throws<ArgumentOutOfRangeException>(() => encoder.WriteFrame(output, new byte[9]));
    }

    private static ReadOnlySequence<byte> Shaped(byte[] bytes, string shape) => shape switch
    {
        "array run" => new ReadOnlySequence<byte>(bytes),
        "array run mid-array" => Segments.MidArrayRun(bytes),
        "one segment" => Segments.OneSegment(bytes),
        _ => Segments.OneBytePerSegment(bytes),
    };

    private static LengthFieldFormat Preset(string name) => name switch
    {
        "Berth" => LengthFieldFormat.Berth,
        "FastPortSharp" => LengthFieldFormat.FastPortSharp,
        _ => LengthFieldFormat.Telepathy,
    };

    private static byte[] Body(int length) => Enumerable.Range(0, length).Select(i => (byte)(i * 7)).ToArray();

    private static byte[] Encode(LengthFieldFormat format, byte[][] bodies)
    {
        var output = new ArrayBufferWriter<byte>();
        var encoder = new FrameEncoder(format);
        foreach (var body in bodies)
        {
            encoder.WriteFrame(output, body);
        }

        return output.WrittenSpan.ToArray();
    }

    private static List<byte[]> DecodeAll(FrameDecoder decoder, ref ReadOnlySequence<byte> buffer)
    {
        var bodies = new List<byte[]>();
        while (decoder.TryReadFrame(ref buffer, out var body) == FrameReadResult.Frame)
        {
            bodies.Add(body.ToArray());
        }

        return bodies;
    }
}
