using System.Buffers.Binary;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// Reading a 16-bit length field from a receive buffer, per read. A single read costs about one
/// cycle, below what a benchmark can resolve after subtracting its own overhead, so the honest rows
/// read 256 fields at offsets taken from the buffer and sum them. The <c>Folded</c> rows reproduce
/// how the source article's 0.11 ns arises: a single read of a constant the JIT evaluates at
/// compile time, leaving nothing to measure.
/// </summary>
[MemoryDiagnoser]
public class IntegerReadBenchmarks
{
    private const int Reads = 256;
    private readonly byte[] _buffer = new byte[Reads * 2];

    private static ReadOnlySpan<byte> ConstantBytes => [0x34, 0x12];

    [GlobalSetup]
    public void Setup() => Random.Shared.NextBytes(_buffer);

    [Benchmark(Baseline = true, OperationsPerInvoke = Reads)]
    public int BitConverterToUInt16()
    {
        var sum = 0;
        for (var offset = 0; offset < _buffer.Length; offset += 2)
        {
            sum += BitConverter.ToUInt16(_buffer, offset);
        }

        return sum;
    }

    [Benchmark(OperationsPerInvoke = Reads)]
    public int BinaryPrimitivesReadUInt16()
    {
        var sum = 0;
        ReadOnlySpan<byte> buffer = _buffer;
        for (var offset = 0; offset < buffer.Length; offset += 2)
        {
            sum += BinaryPrimitives.ReadUInt16LittleEndian(buffer[offset..]);
        }

        return sum;
    }

    [Benchmark]
    public ushort FoldedBinaryPrimitivesReadConstant() => BinaryPrimitives.ReadUInt16LittleEndian(ConstantBytes);

    [Benchmark]
    public ushort FoldedBitConverterOfConstant() => BitConverter.ToUInt16(ConstantBytes);
}
