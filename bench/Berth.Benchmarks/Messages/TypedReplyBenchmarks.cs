using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Send;
using Berth.Framing;
using Berth.Messages;

namespace Berth.Benchmarks.Messages;

/// <summary>
/// What the typed layer adds to a reply, without the network: one receive batch of frames of <c>berth serve --typed</c>'s
/// layout (an id, an int32 sequence and a UTF-8 payload filling the frame) answered into a real send queue, then taken
/// and released as the sender would. The raw echo's reply (the received frame, borrowed from the receive buffer) is the
/// baseline; the typed reply reads each frame through the generated reader and writes it back through the generated
/// writer. Results are per frame.
/// </summary>
[MemoryDiagnoser]
public class TypedReplyBenchmarks
{
    private const int FramesPerBatch = 16;

    private static readonly FrameWriter<EchoLayout> Write = static (ref PacketWriter writer, EchoLayout message) =>
    {
        writer.WriteInt32(EchoLayout.MessageId);
        EchoLayout.Write(ref writer, message);
    };

    private readonly BufferPool _pool = new();
    private SendQueue _queue = null!;
    private byte[] _receiveBuffer = null!;
    private ReadOnlySequence<byte>[] _bodies = null!;
    private EchoLayout[] _messages = null!;

    /// <summary>The frame's body in bytes, as <c>berth-load --size</c> counts it.</summary>
    [Params(64, 1024)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _queue = new SendQueue(LengthFieldFormat.Berth, 1 << 20, _pool, 16_384, BerthMetrics.Default);
        var frameLength = LengthFieldFormat.Berth.HeaderLength + Size;
        _receiveBuffer = new byte[FramesPerBatch * frameLength];
        _bodies = new ReadOnlySequence<byte>[FramesPerBatch];
        // The ASCII text that fills the body after the id, the sequence and the text's one- or two-byte count.
        var text = Encoding.ASCII.GetBytes(new string('a', Size - 8 - (Size - 9 < 0x80 ? 1 : 2)));
        for (var i = 0; i < FramesPerBatch; i++)
        {
            var encoded = new ArrayBufferWriter<byte>();
            MessageWriting.Write(encoded, new EchoLayout { Sequence = i, Payload = new Utf8Field(text) });
            var frame = _receiveBuffer.AsSpan(i * frameLength, frameLength);
            LengthFieldFormat.Berth.WriteHeader(frame, Size);
            var body = frame[LengthFieldFormat.Berth.HeaderLength..];
            BinaryPrimitives.WriteInt32LittleEndian(body, EchoLayout.MessageId);
            encoded.WrittenSpan.CopyTo(body[sizeof(int)..]);
            if (sizeof(int) + encoded.WrittenCount != Size)
            {
                throw new InvalidOperationException($"The echo layout came to {sizeof(int) + encoded.WrittenCount} bytes, not {Size}.");
            }

            _bodies[i] = new ReadOnlySequence<byte>(_receiveBuffer, i * frameLength + LengthFieldFormat.Berth.HeaderLength, Size);
        }
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = FramesPerBatch)]
    public void RawReply()
    {
        _queue.LendReceiveBuffer(_receiveBuffer);
        foreach (var body in _bodies)
        {
            _queue.TryAppend(body, fromReceiveLoop: true);
        }

        EndBatch();
    }

    [Benchmark(OperationsPerInvoke = FramesPerBatch)]
    public void TypedReply()
    {
        _queue.LendReceiveBuffer(_receiveBuffer);
        foreach (var body in _bodies)
        {
            MessageReading.TryRead<EchoLayout>(body.Slice(sizeof(int)), out var message, out _);
            _queue.TryAppend(message, Write, fromReceiveLoop: true);
        }

        EndBatch();
    }

    /// <summary>The typed reply's first half: each frame read through the generated reader, nothing sent.</summary>
    [Benchmark(OperationsPerInvoke = FramesPerBatch)]
    public int TypedRead()
    {
        var sum = 0;
        foreach (var body in _bodies)
        {
            MessageReading.TryRead<EchoLayout>(body.Slice(sizeof(int)), out var message, out _);
            sum += message.Sequence;
        }

        return sum;
    }

    /// <summary>The typed reply's second half: messages read beforehand written into the send queue.</summary>
    [Benchmark(OperationsPerInvoke = FramesPerBatch)]
    public void TypedWrite()
    {
        _queue.LendReceiveBuffer(_receiveBuffer);
        for (var i = 0; i < _messages.Length; i++)
        {
            _queue.TryAppend(_messages[i], Write, fromReceiveLoop: true);
        }

        EndBatch();
    }

    [GlobalSetup(Target = nameof(TypedWrite))]
    public void SetupWrite()
    {
        Setup();
        _messages = new EchoLayout[FramesPerBatch];
        for (var i = 0; i < FramesPerBatch; i++)
        {
            MessageReading.TryRead<EchoLayout>(_bodies[i].Slice(sizeof(int)), out _messages[i], out _);
        }
    }

    private void EndBatch()
    {
        _queue.EndReplies();
        var batch = _queue.TakeBatch(out _);
        if (batch is not null)
        {
            _queue.BatchWritten(batch);
        }

        _queue.ReturnReceiveBuffer();
    }
}

/// <summary>The layout of <c>berth serve --typed</c>'s echo: a sequence number and a UTF-8 payload read as a view.</summary>
// Its own id: the benchmarks' contracts share one catalog; the id does not change the layout.
[Message(41)]
public partial struct EchoLayout
{
    [Field(0)] public int Sequence;
    [Field(1)] public Utf8Field Payload;
}
