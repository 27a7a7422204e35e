using System.Net;
using System.Net.Sockets;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using Berth.Framing;
using Berth.Connections;
using Berth.Connections.Send;

namespace Berth.Benchmarks.Tcp;

/// <summary>
/// The send path's one design bet: many queued frames written by one gather send of the queue's pooled arrays,
/// against the simpler alternative of one socket send per frame. Both run over a real loopback connection whose
/// far end a thread drains; results are per frame.
/// </summary>
[MemoryDiagnoser]
public class SendBatchingBenchmarks
{
    private const int FramesPerBatch = 32;

    private readonly BufferPool _pool = new();
    private Socket _listener = null!;
    private Socket _sender = null!;
    private Socket _receiver = null!;
    private Thread _drain = null!;
    private SendQueue _queue = null!;
    private SocketSender _gather = null!;
    private List<ArraySegment<byte>> _buffers = null!;
    private byte[] _frame = null!;

    [Params(64, 1024)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        _listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        _listener.Listen(1);
        _sender = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        _sender.Connect(_listener.LocalEndPoint!);
        _receiver = _listener.Accept();
        _drain = new Thread(Drain) { IsBackground = true };
        _drain.Start();

        _queue = new SendQueue(LengthFieldFormat.Berth, 1 << 20, _pool, 16_384, BerthMetrics.Default);
        _gather = new SocketSender();
        _buffers = new List<ArraySegment<byte>>(8);
        _frame = new byte[4 + Size];
        LengthFieldFormat.Berth.WriteHeader(_frame, Size);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _sender.Dispose();
        _receiver.Dispose();
        _listener.Dispose();
        _gather.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = FramesPerBatch)]
    public async Task OneSendPerFrame()
    {
        for (var i = 0; i < FramesPerBatch; i++)
        {
            await _sender.SendAsync(_frame.AsMemory(), SocketFlags.None);
        }
    }

    [Benchmark(OperationsPerInvoke = FramesPerBatch)]
    public async Task QueueThenOneGatherSend()
    {
        var body = _frame.AsMemory(4);
        for (var i = 0; i < FramesPerBatch; i++)
        {
            _queue.TryAppend(body.Span, fromReceiveLoop: false);
        }

        var batch = _queue.TakeBatch(out _)!;
        for (var first = 0; first < batch.SegmentCount; first += 8)
        {
            _buffers.Clear();
            for (var i = first; i < Math.Min(batch.SegmentCount, first + 8); i++)
            {
                _buffers.Add(batch.Segment(i));
            }

            await _gather.SendAsync(_sender, _buffers);
        }

        _queue.BatchWritten(batch);
    }

    private void Drain()
    {
        var sink = new byte[1 << 20];
        try
        {
            while (_receiver.Receive(sink) > 0)
            {
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Cleanup closed the connection.
        }
    }
}
