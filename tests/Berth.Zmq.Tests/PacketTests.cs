using Berth.Buffers;

namespace Berth.Zmq.Tests;

/// <summary>Berth packets written by the core's <see cref="PacketWriter"/> straight into ZeroMQ frames, read back by <see cref="PacketReader"/>.</summary>
public sealed class PacketTests : IDisposable
{
    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    [Fact]
    public void A_packet_written_into_a_frame_is_read_back_from_the_received_frame()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());
        using var frames = new ZmqFrameWriter();
        using var outgoing = new ZmqMessage();
        var blob = new byte[70_000];
        Random.Shared.NextBytes(blob);

        var writer = new PacketWriter(frames);
        writer.WriteInt32(42);
        writer.WriteUtf8("hello, zmq");
        writer.WriteDouble(3.25);
        writer.WriteBytes(blob);
        writer.WriteVarUInt32(300);
        writer.Flush();
        frames.MoveTo(outgoing);
        push.Send(outgoing);

        using var incoming = new ZmqMessage();
        pull.Receive(incoming);
        var reader = new PacketReader(incoming.Data);
        Assert.Equal(42, reader.ReadInt32());
        Assert.True(reader.TryReadUtf8(out var text));
        Assert.Equal("hello, zmq", text);
        Assert.Equal(3.25, reader.ReadDouble());
        var readBlob = new byte[blob.Length];
        Assert.True(reader.TryReadBytes(readBlob));
        Assert.Equal(blob, readBlob);
        Assert.True(reader.TryReadVarUInt32(out var varint));
        Assert.Equal(300u, varint);
        Assert.Equal(0, reader.Remaining);
    }

    [Fact]
    public void Writing_packets_into_frames_allocates_nothing_per_message()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.Bind("inproc://packets");
        push.Connect("inproc://packets");
        using var frames = new ZmqFrameWriter();
        using var outgoing = new ZmqMessage();
        using var incoming = new ZmqMessage();

        void Run(int count)
        {
            for (var i = 0; i < count; i++)
            {
                var writer = new PacketWriter(frames);
                writer.WriteInt32(i);
                writer.WriteInt64(i * 3L);
                writer.WriteBytes("payload bytes"u8);
                writer.Flush();
                frames.MoveTo(outgoing);
                push.Send(outgoing);
                pull.Receive(incoming);
                var reader = new PacketReader(incoming.Data);

                // Assert.Equal allocates in xunit's comparer; a plain comparison keeps the measured loop clean.
                Assert.True(reader.ReadInt32() == i);
            }
        }

        Run(2_000);
        var before = GC.GetAllocatedBytesForCurrentThread();
        Run(100_000);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.True(allocated < 1_000, $"{allocated} bytes for 100000 packets");
    }

    [Fact]
    public void A_frame_larger_than_the_writer_allows_is_refused()
    {
        using var frames = new ZmqFrameWriter(maxFrameSize: 1024);
        frames.GetSpan(1000);
        frames.Advance(1000);

        Assert.Throws<InvalidOperationException>(() => frames.GetSpan(100));
    }
}
