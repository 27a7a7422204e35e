using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// The same increments as <see cref="LockBenchmarks"/> with two threads hammering one counter, one
/// per core of the benchmark machine, per increment. The second thread is started once and
/// released together with the caller on every invocation.
/// </summary>
[MemoryDiagnoser]
public class ContendedLockBenchmarks
{
    private const int IncrementsPerThread = 10_000;
    private const int Increments = 2 * IncrementsPerThread;
    private readonly LockedCounter _counter = new();
    private TwoThreadRunner _runner = null!;

    [GlobalSetup]
    public void Setup() => _runner = new TwoThreadRunner();

    [GlobalCleanup]
    public void Cleanup() => _runner.Dispose();

    [Benchmark(Baseline = true, OperationsPerInvoke = Increments)]
    public long LockObject() => RunOnTwoThreads(LockKind.Monitor);

    [Benchmark(OperationsPerInvoke = Increments)]
    public long SystemThreadingLock() => RunOnTwoThreads(LockKind.Lock);

    [Benchmark(OperationsPerInvoke = Increments)]
    public long SystemThreadingLockEnterScope() => RunOnTwoThreads(LockKind.LockEnterScope);

    [Benchmark(OperationsPerInvoke = Increments)]
    public long ReaderWriterLockSlimWrite() => RunOnTwoThreads(LockKind.ReaderWriterWrite);

    [Benchmark(OperationsPerInvoke = Increments)]
    public long ReaderWriterLockSlimRead() => RunOnTwoThreads(LockKind.ReaderWriterRead);

    [Benchmark(OperationsPerInvoke = Increments)]
    public long InterlockedIncrement() => RunOnTwoThreads(LockKind.Interlocked);

    private long RunOnTwoThreads(LockKind kind) => _runner.Run(() => _counter.Run(kind, IncrementsPerThread));
}
