using System.Buffers;
using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using Berth.Connections;
using Berth.Framing;
using Berth.Tests.Tcp;
using BerthClient = Berth.Connections.BerthClient;

namespace Berth.Tests.Clients;

/// <summary>
/// A client whose largest frame is small still reads a pipelined burst in one receive and answers it with one batch.
/// Its receive ring used to be no larger than one frame, so each receive took one frame and each reply went out in a
/// send of its own: at 64 B frames that made the client's system calls per message three, not a fraction of one.
/// </summary>
public sealed class ClientPipeliningTests
{
    private const int BodyLength = 64;
    private const int Burst = 16;
    private const int FrameLength = 4 + BodyLength;

    public static TheoryData<HandlerScheduling> Schedulings => new(Enum.GetValues<HandlerScheduling>());

    [Theory]
    [MemberData(nameof(Schedulings))]
    public async Task ABurstOfSmallFramesIsDeliveredAsOneBatchWhoseRepliesQueueTogether(HandlerScheduling scheduling)
    {
        var handler = await EchoBurst(scheduling);

        Assert.Equal(Burst, handler.Frames);
        Assert.Equal((Burst - 1) * FrameLength, handler.MostQueuedBeforeAReply);
    }

    /// <summary>
    /// The end of that batch is marked once, after its last frame and before its replies leave: a handler that reads
    /// the clock once per batch (berth load) relies on both.
    /// </summary>
    [Theory]
    [MemberData(nameof(Schedulings))]
    public async Task TheEndOfADeliveredBatchIsMarkedOnceBeforeItsRepliesLeave(HandlerScheduling scheduling)
    {
        var handler = await EchoBurst(scheduling);

        Assert.Equal([Burst], handler.FramesAtEachBatchEnd);
        Assert.Equal([Burst * FrameLength], handler.QueuedAtEachBatchEnd);
    }

    /// <summary>Writes one burst of frames to a client that echoes each, and reads every echo back.</summary>
    private static async Task<ReplyingHandler> EchoBurst(HandlerScheduling scheduling)
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen();
        var handler = new ReplyingHandler();
        var options = new BerthClientOptions
        {
            Port = ((IPEndPoint)listener.LocalEndPoint!).Port,
            HandlerScheduling = scheduling,
            Format = LengthFieldFormat.Berth.WithMaxBodyLength(BodyLength),
        };
        await using var client = new BerthClient(options, handler);
        await client.ConnectAsync().WaitAsync(Waits.Patience);
        using var peer = await listener.AcceptAsync().WaitAsync(Waits.Patience);

        // One write of the whole burst arrives on loopback as one segment, so one receive can take all of it.
        var burst = new byte[Burst * FrameLength];
        for (var i = 0; i < Burst; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(burst.AsSpan(i * FrameLength), BodyLength);
            burst.AsSpan(i * FrameLength + 4, BodyLength).Fill((byte)i);
        }

        await peer.SendAsync(burst);
        var echoed = new byte[burst.Length];
        for (var read = 0; read < echoed.Length;)
        {
            var received = await peer.ReceiveAsync(echoed.AsMemory(read)).AsTask().WaitAsync(Waits.Patience);
            Assert.NotEqual(0, received);
            read += received;
        }

        Assert.Equal(burst, echoed);
        return handler;
    }

    /// <summary>
    /// Sends each frame back, noting what was already queued: replies queued in one batch wait for its end. Notes the
    /// frames seen and the bytes queued at each batch's end mark.
    /// </summary>
    private sealed class ReplyingHandler : ConnectionHandler
    {
        private readonly List<int> _framesAtBatchEnds = [];
        private readonly List<long> _queuedAtBatchEnds = [];
        private long _mostQueued;
        private int _frames;

        public int Frames => Volatile.Read(ref _frames);

        public long MostQueuedBeforeAReply => Volatile.Read(ref _mostQueued);

        public int[] FramesAtEachBatchEnd
        {
            get
            {
                lock (_framesAtBatchEnds)
                {
                    return [.. _framesAtBatchEnds];
                }
            }
        }

        public long[] QueuedAtEachBatchEnd
        {
            get
            {
                lock (_framesAtBatchEnds)
                {
                    return [.. _queuedAtBatchEnds];
                }
            }
        }

        public override void OnFramesDelivered(Connection connection)
        {
            lock (_framesAtBatchEnds)
            {
                _framesAtBatchEnds.Add(Frames);
                _queuedAtBatchEnds.Add(connection.QueuedBytes);
            }
        }

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            Volatile.Write(ref _mostQueued, Math.Max(_mostQueued, connection.QueuedBytes));
            Interlocked.Increment(ref _frames);
            Assert.True(connection.TrySend(body));
        }
    }
}
