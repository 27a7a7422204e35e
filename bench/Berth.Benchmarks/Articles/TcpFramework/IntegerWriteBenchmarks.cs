using System.Buffers.Binary;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// Writing a 16-bit value into a send buffer, per write. The honest rows write 256 values taken
/// from a field into consecutive offsets. The <c>StackAllocDiscarded</c> row reproduces the source
/// article's "BinaryPrimitives (stackalloc)" shape: a constant written into scratch memory nobody
/// reads, which the JIT may remove entirely.
/// </summary>
[MemoryDiagnoser]
public class IntegerWriteBenchmarks
{
    private const int Writes = 256;
    private readonly byte[] _buffer = new byte[Writes * 2];
    private ushort _value = 0x1234;

    [Benchmark(Baseline = true, OperationsPerInvoke = Writes)]
    public int BitConverterGetBytes()
    {
        var written = 0;
        for (var offset = 0; offset < _buffer.Length; offset += 2)
        {
            var bytes = BitConverter.GetBytes((ushort)(_value + offset));
            bytes.CopyTo(_buffer, offset);
            written += bytes.Length;
        }

        return written;
    }

    [Benchmark(OperationsPerInvoke = Writes)]
    public byte BinaryPrimitivesWriteUInt16()
    {
        Span<byte> buffer = _buffer;
        for (var offset = 0; offset < buffer.Length; offset += 2)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(buffer[offset..], (ushort)(_value + offset));
        }

        return buffer[^1];
    }

    [Benchmark]
    public void StackAllocDiscarded()
    {
        Span<byte> scratch = stackalloc byte[2];
        BinaryPrimitives.WriteUInt16LittleEndian(scratch, 0x1234);
    }
}
