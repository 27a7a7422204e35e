using System.Buffers.Binary;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// Reading a 16-bit length field from a receive buffer, per read. The honest rows read from a
/// field at an offset the JIT cannot know and return the value. The <c>Folded</c> rows reproduce
/// how a sub-nanosecond figure like the source article's 0.11 ns arises: the input is a constant
/// the JIT evaluates at compile time, so nothing is left to measure.
/// </summary>
[MemoryDiagnoser]
public class IntegerReadBenchmarks
{
    private readonly byte[] _buffer = new byte[64];
    private int _offset;

    private static ReadOnlySpan<byte> ConstantBytes => [0x34, 0x12];

    [GlobalSetup]
    public void Setup()
    {
        Random.Shared.NextBytes(_buffer);
        _offset = 6;
    }

    [Benchmark(Baseline = true)]
    public ushort BitConverterToUInt16() => BitConverter.ToUInt16(_buffer, _offset);

    [Benchmark]
    public ushort BinaryPrimitivesReadUInt16() => BinaryPrimitives.ReadUInt16LittleEndian(_buffer.AsSpan(_offset));

    [Benchmark]
    public ushort FoldedBinaryPrimitivesReadConstant() => BinaryPrimitives.ReadUInt16LittleEndian(ConstantBytes);

    [Benchmark]
    public ushort FoldedBitConverterOfConstant() => BitConverter.ToUInt16(ConstantBytes);
}
