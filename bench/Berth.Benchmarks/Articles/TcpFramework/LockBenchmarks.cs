using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// One uncontended increment of a shared counter under each kind of lock, per increment.
/// </summary>
[MemoryDiagnoser]
public class LockBenchmarks
{
    private const int Increments = 1000;
    private readonly LockedCounter _counter = new();

    [Benchmark(Baseline = true, OperationsPerInvoke = Increments)]
    public long LockObject() => _counter.Run(LockKind.Monitor, Increments);

    [Benchmark(OperationsPerInvoke = Increments)]
    public long SystemThreadingLock() => _counter.Run(LockKind.Lock, Increments);

    [Benchmark(OperationsPerInvoke = Increments)]
    public long SystemThreadingLockEnterScope() => _counter.Run(LockKind.LockEnterScope, Increments);

    [Benchmark(OperationsPerInvoke = Increments)]
    public long ReaderWriterLockSlimWrite() => _counter.Run(LockKind.ReaderWriterWrite, Increments);

    [Benchmark(OperationsPerInvoke = Increments)]
    public long ReaderWriterLockSlimRead() => _counter.Run(LockKind.ReaderWriterRead, Increments);

    [Benchmark(OperationsPerInvoke = Increments)]
    public long InterlockedIncrement() => _counter.Run(LockKind.Interlocked, Increments);
}
