using System.Buffers.Binary;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// Writing a 16-bit value into a send buffer, per write. The value comes from a field so it is not
/// a compile-time constant; the <c>StackAllocDiscarded</c> row reproduces the source article's
/// "BinaryPrimitives (stackalloc)" shape, whose result nobody reads, so the JIT may drop the work.
/// </summary>
[MemoryDiagnoser]
public class IntegerWriteBenchmarks
{
    private readonly byte[] _buffer = new byte[64];
    private ushort _value = 0x1234;
    private int _offset = 6;

    [Benchmark(Baseline = true)]
    public byte[] BitConverterGetBytes() => BitConverter.GetBytes(_value);

    [Benchmark]
    public byte BinaryPrimitivesWriteUInt16()
    {
        BinaryPrimitives.WriteUInt16LittleEndian(_buffer.AsSpan(_offset), _value);
        return _buffer[_offset];
    }

    [Benchmark]
    public byte BinaryPrimitivesWriteStackAlloc()
    {
        Span<byte> scratch = stackalloc byte[2];
        BinaryPrimitives.WriteUInt16LittleEndian(scratch, _value);
        return scratch[0];
    }

    [Benchmark]
    public void StackAllocDiscarded()
    {
        Span<byte> scratch = stackalloc byte[2];
        BinaryPrimitives.WriteUInt16LittleEndian(scratch, 0x1234);
    }
}
