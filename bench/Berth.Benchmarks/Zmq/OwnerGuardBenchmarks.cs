using BenchmarkDotNet.Attributes;
using Berth.Zmq;

namespace Berth.Benchmarks.Zmq;

/// <summary>
/// The single-owner guard of one send/receive pair (two claims and two releases) by the thread that keeps using the
/// socket: the guard <see cref="ZmqSocket"/> has now, against the compare-and-swap it replaced (idle to busy with
/// <see cref="Interlocked.CompareExchange(ref int, int, int)"/>, back with a volatile write), written out here as the
/// baseline. No libzmq call is made, so only the guard is measured; <see cref="CallOverheadBenchmarks"/> measures
/// it inside real calls.
/// </summary>
public class OwnerGuardBenchmarks
{
    private const int Batch = 1000;
    private const int Idle = 0;
    private const int Busy = 1;

    private ZmqContext _context = null!;
    private ZmqSocket _socket = null!;
    private int _state;

    [GlobalSetup]
    public void Setup()
    {
        _context = new ZmqContext();
        _socket = _context.CreateSocket(ZmqSocketType.Pair);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _socket.Dispose();
        _context.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Batch)]
    public void CompareAndSwap()
    {
        for (var i = 0; i < Batch; i++)
        {
            Claim();
            Release();
            Claim();
            Release();
        }
    }

    [Benchmark(OperationsPerInvoke = Batch)]
    public void OwnerSlot()
    {
        for (var i = 0; i < Batch; i++)
        {
            _socket.Enter();
            _socket.Exit();
            _socket.Enter();
            _socket.Exit();
        }
    }

    private void Claim()
    {
        if (Interlocked.CompareExchange(ref _state, Busy, Idle) != Idle)
        {
            throw new InvalidOperationException("claimed twice");
        }
    }

    private void Release()
    {
        if (_state == Busy)
        {
            Volatile.Write(ref _state, Idle);
        }
    }
}
