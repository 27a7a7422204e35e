using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;

namespace Berth.Zmq.Tests;

// Zero-copy sends count their releases in one process-wide counter that a test here asserts exactly.
[Collection("zero-copy release counter")]
public sealed unsafe class MessageTests : IDisposable
{
    private static int _nativeFrees;
    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    [Fact]
    public void Multipart_messages_arrive_whole_with_the_more_flag_on_all_but_the_last_frame()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());

        push.SendMultipart("a"u8.ToArray(), Array.Empty<byte>(), "ccc"u8.ToArray());
        push.Send("x"u8, more: true);
        push.Send("y"u8);

        using var frame = new ZmqMessage();
        var sizes = new List<(int Size, bool More)>();
        do
        {
            pull.Receive(frame);
            sizes.Add((frame.Size, frame.More));
        }
        while (frame.More);
        Assert.Equal([(1, true), (0, true), (3, false)], sizes);

        var buffer = new byte[4];
        Assert.Equal(1, pull.Receive(buffer));
        Assert.True(pull.ReceiveMore);
        Assert.Equal(1, pull.Receive(buffer));
        Assert.False(pull.ReceiveMore);
    }

    [Fact]
    public void A_received_message_carries_connection_metadata()
    {
        using var rep = _context.Create(ZmqSocketType.Rep);
        using var req = _context.Create(ZmqSocketType.Req);
        req.Connect(rep.BindLoopback());
        req.Send("meta");

        using var message = new ZmqMessage();
        rep.Receive(message);
        Assert.Equal("meta", message.ToString());
        Assert.Equal("REQ", message.GetMetadata("Socket-Type"));
        Assert.Equal("127.0.0.1", message.GetMetadata("Peer-Address"));
    }

    [Fact]
    public void Message_frames_can_be_built_in_place_and_sent_without_copy()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());

        using var message = new ZmqMessage();
        message.InitSize(5);
        "hello"u8.CopyTo(message.Data);
        push.Send(message);
        Assert.Equal(0, message.Size);

        message.InitCopy("copied"u8);
        push.Send(message);

        Assert.Equal("hello", pull.ReceiveString());
        Assert.Equal("copied", pull.ReceiveString());
    }

    [Fact]
    public void Zero_copy_native_memory_is_freed_exactly_once_per_message()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());
        const int Count = 50;
        var before = Volatile.Read(ref _nativeFrees);

        using var message = new ZmqMessage();
        for (var i = 0; i < Count; i++)
        {
            var data = (byte*)NativeMemory.Alloc(4096);
            new Span<byte>(data, 4096).Fill((byte)i);
            message.InitNative(data, 4096, &FreeNative, 0);
            push.Send(message);
        }

        // A frame closed without being sent is released too.
        message.InitNative(NativeMemory.Alloc(16), 16, &FreeNative, 0);
        message.Clear();

        var buffer = new byte[4096];
        for (var i = 0; i < Count; i++)
        {
            Assert.Equal(4096, pull.Receive(buffer));
            Assert.All(buffer, b => Assert.Equal((byte)i, b));
        }

        // libzmq's I/O thread runs the callbacks once the bytes are written; it has by the time they are received.
        SpinWait.SpinUntil(() => Volatile.Read(ref _nativeFrees) - before == Count + 1, Endpoints.Patience);
        Assert.Equal(Count + 1, Volatile.Read(ref _nativeFrees) - before);
    }

    [Fact]
    public void Zero_copy_pooled_arrays_go_back_to_the_pool_exactly_once()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());
        push.ZeroCopyThreshold = 1024;
        const int Count = 40;
        var before = ZmqZeroCopy.PooledReleases;

        using var message = new ZmqMessage();
        var payload = new byte[100_000];
        for (var i = 0; i < Count; i++)
        {
            payload.AsSpan().Fill((byte)i);
            if (i % 2 == 0)
            {
                push.Send(payload);
            }
            else
            {
                message.InitPooled(payload.Length);
                payload.CopyTo(message.Data);
                push.Send(message);
            }
        }

        var buffer = new byte[payload.Length];
        for (var i = 0; i < Count; i++)
        {
            Assert.Equal(payload.Length, pull.Receive(buffer));
            Assert.Equal((byte)i, buffer[0]);
            Assert.Equal((byte)i, buffer[^1]);
        }

        SpinWait.SpinUntil(() => ZmqZeroCopy.PooledReleases - before >= Count, Endpoints.Patience);
        Assert.Equal(Count, ZmqZeroCopy.PooledReleases - before);
    }

    // The default Send(span) changes route at two sizes: libzmq keeps frames of up to 33 bytes inside the message (no
    // allocation) and mallocs larger ones, and from the zero-copy threshold Berth copies into a pooled array instead.
    [Fact]
    public void Default_span_sends_deliver_every_byte_at_each_size_where_the_route_changes()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());
        Assert.Equal(ZmqSendStrategy.DefaultZeroCopyThreshold, push.ZeroCopyThreshold);
        const int Threshold = ZmqSendStrategy.DefaultZeroCopyThreshold;
        int[] sizes = [0, 32, 33, 34, Threshold - 1, Threshold, Threshold + 1];
        var before = ZmqZeroCopy.PooledReleases;

        for (var i = 0; i < sizes.Length; i++)
        {
            push.Send(Pattern(sizes[i], i));
        }

        // One multipart message whose frames fall on both sides of each boundary.
        for (var i = 0; i < sizes.Length; i++)
        {
            push.Send(Pattern(sizes[i], sizes.Length + i), more: i < sizes.Length - 1);
        }

        using var frame = new ZmqMessage();
        for (var i = 0; i < sizes.Length * 2; i++)
        {
            pull.Receive(frame);
            Assert.Equal(i >= sizes.Length && i < (sizes.Length * 2) - 1, frame.More);
            Assert.True(frame.Data.SequenceEqual(Pattern(sizes[i % sizes.Length], i)), $"frame {i} of {sizes[i % sizes.Length]} bytes differs");
        }

        var pooled = 2 * sizes.Count(size => size >= Threshold);
        SpinWait.SpinUntil(() => ZmqZeroCopy.PooledReleases - before >= pooled, Endpoints.Patience);
        Assert.Equal(pooled, ZmqZeroCopy.PooledReleases - before);
    }

    [Fact]
    public void Receiving_a_frame_longer_than_the_buffer_is_reported_not_silently_truncated()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());
        push.Send(Encoding.UTF8.GetBytes("much too long"));

        var error = Assert.Throws<ZmqException>(() => pull.Receive(new byte[4]));
        Assert.Contains("13-byte frame", error.Message, StringComparison.Ordinal);
    }

    /// <summary>Bytes that differ per frame and per position, so a frame sent in the wrong place or cut short shows.</summary>
    private static byte[] Pattern(int size, int frame)
    {
        var bytes = new byte[size];
        for (var i = 0; i < size; i++)
        {
            bytes[i] = (byte)((i * 31) + frame);
        }

        return bytes;
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void FreeNative(nint data, nint hint)
    {
        NativeMemory.Free((void*)data);
        Interlocked.Increment(ref _nativeFrees);
    }
}
