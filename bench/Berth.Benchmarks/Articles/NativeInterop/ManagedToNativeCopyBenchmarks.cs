using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// One copy of a managed array into a native buffer allocated once, per operation.
/// </summary>
[MemoryDiagnoser]
public unsafe class ManagedToNativeCopyBenchmarks
{
    private byte[] _source = [];
    private byte* _destination;

    [Params(64, 1024, 65536, 1048576)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _source = new byte[Size];
        Random.Shared.NextBytes(_source);
        _destination = (byte*)NativeMemory.AlignedAlloc((nuint)Size, 64);
    }

    [GlobalCleanup]
    public void Cleanup() => NativeMemory.AlignedFree(_destination);

    [Benchmark(Baseline = true)]
    public byte MarshalCopy()
    {
        Marshal.Copy(_source, 0, (IntPtr)_destination, Size);
        return _destination[Size - 1];
    }

    [Benchmark]
    public byte BufferMemoryCopy()
    {
        fixed (byte* source = _source)
        {
            Buffer.MemoryCopy(source, _destination, Size, Size);
        }

        return _destination[Size - 1];
    }

    [Benchmark]
    public byte SpanCopyTo()
    {
        _source.AsSpan().CopyTo(new Span<byte>(_destination, Size));
        return _destination[Size - 1];
    }

    [Benchmark]
    public byte UnsafeCopyBlockUnaligned()
    {
        Unsafe.CopyBlockUnaligned(ref *_destination, ref MemoryMarshal.GetArrayDataReference(_source), (uint)Size);
        return _destination[Size - 1];
    }
}
