using Berth.Buffers;
using Berth.Framing;

namespace Berth.Tests.Buffers;

/// <summary>The README's example, kept compiling and true.</summary>
public class ReadmeExampleTests
{
    [Fact]
    public void The_readme_example_round_trips_a_frame()
    {
        using var output = new PooledBufferWriter();
        var writer = new PacketWriter(output, Endianness.Little);
        var length = writer.ReserveLength(LengthFieldFormat.Berth);
        writer.WriteInt32(1001);
        writer.WriteUtf8("hello", StringLengthPrefix.VarInt);
        writer.WriteDouble(12.5);
        writer.BackfillLength(length);
        writer.Flush();

        var decoder = new FrameDecoder(LengthFieldFormat.Berth);
        var received = output.WrittenSequence;
        var frames = 0;
        while (decoder.TryReadFrame(ref received, out var body) == FrameReadResult.Frame)
        {
            var reader = new PacketReader(body);
            Assert.Equal(1001, reader.ReadInt32());
            Assert.Equal("hello", reader.ReadUtf8(StringLengthPrefix.VarInt));
            Assert.Equal(12.5, reader.ReadDouble());
            frames++;
        }

        Assert.Equal(1, frames);
    }
}
