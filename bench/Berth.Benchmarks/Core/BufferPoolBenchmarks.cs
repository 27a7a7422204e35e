using System.Buffers;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Berth.Buffers;

namespace Berth.Benchmarks.Core;

/// <summary>
/// The connection pool's cost: <see cref="ReleasingArrayPool"/> (pinned arrays, bounded in bytes, released after an
/// idle interval) against the pool it replaced, <see cref="ArrayPool{T}.Create(int, int)"/> with 1,024 arrays per
/// size. Per rent-and-return pair, on one thread and with both cores renting the same size at once.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class BufferPoolBenchmarks
{
    private const int PairsPerThread = 1_000;
    private const int Threads = 2;
    private readonly ArrayPool<byte> _created = ArrayPool<byte>.Create(2 * 1024 * 1024, 1024);
    private readonly ReleasingArrayPool _releasing = new(2 * 1024 * 1024, 32 * 1024 * 1024, TimeSpan.FromSeconds(5));
    private readonly ParallelOptions _bothCores = new() { MaxDegreeOfParallelism = Threads };

    [Params(4096, 65536)]
    public int Size { get; set; }

    [Benchmark(Baseline = true, OperationsPerInvoke = PairsPerThread)]
    [BenchmarkCategory("OneThread")]
    public void ArrayPoolCreate() => RentAndReturn(_created);

    [Benchmark(OperationsPerInvoke = PairsPerThread)]
    [BenchmarkCategory("OneThread")]
    public void Releasing() => RentAndReturn(_releasing);

    [Benchmark(Baseline = true, OperationsPerInvoke = PairsPerThread * Threads)]
    [BenchmarkCategory("TwoThreads")]
    public void ArrayPoolCreateContended() => Parallel.For(0, Threads, _bothCores, _ => RentAndReturn(_created));

    [Benchmark(OperationsPerInvoke = PairsPerThread * Threads)]
    [BenchmarkCategory("TwoThreads")]
    public void ReleasingContended() => Parallel.For(0, Threads, _bothCores, _ => RentAndReturn(_releasing));

    private void RentAndReturn(ArrayPool<byte> pool)
    {
        for (var i = 0; i < PairsPerThread; i++)
        {
            var array = pool.Rent(Size);
            array[0] = (byte)i;
            pool.Return(array);
        }
    }
}
