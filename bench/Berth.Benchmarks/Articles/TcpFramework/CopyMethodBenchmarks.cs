using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// One 4 KB managed-to-managed copy, per copy. The destination is allocated once, except in the
/// rows marked as allocating, which reproduce the source article's setup where every copy also
/// allocated its 4 KB destination (its 4,120 B per operation).
/// </summary>
[MemoryDiagnoser]
public class CopyMethodBenchmarks
{
    private const int Size = 4096;
    private readonly byte[] _source = new byte[Size];
    private readonly byte[] _destination = new byte[Size];

    [GlobalSetup]
    public void Setup() => Random.Shared.NextBytes(_source);

    [Benchmark(Baseline = true)]
    public byte ArrayCopy()
    {
        Array.Copy(_source, _destination, Size);
        return _destination[Size - 1];
    }

    [Benchmark]
    public byte BufferBlockCopy()
    {
        Buffer.BlockCopy(_source, 0, _destination, 0, Size);
        return _destination[Size - 1];
    }

    [Benchmark]
    public byte SpanCopyTo()
    {
        _source.AsSpan().CopyTo(_destination);
        return _destination[Size - 1];
    }

    [Benchmark]
    public byte UnsafeCopyBlockUnaligned()
    {
        Unsafe.CopyBlockUnaligned(
            ref MemoryMarshal.GetArrayDataReference(_destination),
            ref MemoryMarshal.GetArrayDataReference(_source),
            Size);
        return _destination[Size - 1];
    }

    [Benchmark]
    public byte[] ArrayCopyAllocating()
    {
        var destination = new byte[Size];
        Array.Copy(_source, destination, Size);
        return destination;
    }

    [Benchmark]
    public byte[] SpanToArrayAllocating() => _source.AsSpan().ToArray();
}
