using BenchmarkDotNet.Attributes;
using Berth.Zmq;
using Berth.Zmq.Native;

namespace Berth.Benchmarks.Zmq;

/// <summary>
/// What one 64-byte send and receive through <see cref="ZmqSocket"/> costs beyond the bare libzmq calls: a PAIR pair
/// over inproc on one thread, so no network or second thread is measured, only the path from the public method to
/// <c>zmq_send</c>/<c>zmq_recv</c> and back. The baseline calls libzmq directly on the same sockets. Calling the
/// non-blocking form first without a GC transition (<c>SuppressGCTransition</c>) measured no faster than the plain
/// blocking call, and libzmq may run a zero-copy frame's managed free callback inside any send or receive, which such
/// a call must never do; so every call keeps its transition.
/// </summary>
[MemoryDiagnoser]
public unsafe class CallOverheadBenchmarks
{
    private const int Batch = 500;
    private const int Size = 64;

    private readonly byte[] _payload = new byte[Size];
    private readonly byte[] _buffer = new byte[Size];
    private ZmqContext _context = null!;
    private ZmqSocket _sender = null!;
    private ZmqSocket _receiver = null!;
    private ZmqMessage _message = null!;
    private nint _senderPointer;
    private nint _receiverPointer;

    [GlobalSetup]
    public void Setup()
    {
        _context = new ZmqContext();
        _receiver = _context.CreateSocket(ZmqSocketType.Pair);
        _receiver.Bind("inproc://call-overhead");
        _sender = _context.CreateSocket(ZmqSocketType.Pair);
        _sender.Connect("inproc://call-overhead");
        _message = new ZmqMessage();
        _senderPointer = _sender.EnterForPoll();
        _sender.ExitAfterPoll();
        _receiverPointer = _receiver.EnterForPoll();
        _receiver.ExitAfterPoll();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _message.Dispose();
        _sender.Dispose();
        _receiver.Dispose();
        _context.Dispose();
    }

    /// <summary><c>zmq_send</c> and <c>zmq_recv</c> called directly: the floor.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Batch)]
    public void Native()
    {
        fixed (byte* payload = _payload)
        fixed (byte* buffer = _buffer)
        {
            for (var i = 0; i < Batch; i++)
            {
                Check(LibZmq.Send(_senderPointer, payload, Size, 0));
            }

            for (var i = 0; i < Batch; i++)
            {
                Check(LibZmq.Recv(_receiverPointer, buffer, Size, 0));
            }
        }
    }

    /// <summary><see cref="ZmqSocket.Send(ReadOnlySpan{byte}, bool)"/> and <see cref="ZmqSocket.Receive(Span{byte})"/>.</summary>
    [Benchmark(OperationsPerInvoke = Batch)]
    public void Socket()
    {
        for (var i = 0; i < Batch; i++)
        {
            _sender.Send(_payload);
        }

        for (var i = 0; i < Batch; i++)
        {
            _receiver.Receive(_buffer);
        }
    }

    /// <summary>Sends a span and receives into a reused <see cref="ZmqMessage"/> (<c>zmq_msg_recv</c>).</summary>
    [Benchmark(OperationsPerInvoke = Batch)]
    public void SocketIntoMessage()
    {
        for (var i = 0; i < Batch; i++)
        {
            _sender.Send(_payload);
        }

        for (var i = 0; i < Batch; i++)
        {
            _receiver.Receive(_message);
        }
    }

    private static void Check(int result)
    {
        if (result < 0)
        {
            throw new InvalidOperationException($"libzmq call failed: errno {LibZmq.Errno()}");
        }
    }
}
