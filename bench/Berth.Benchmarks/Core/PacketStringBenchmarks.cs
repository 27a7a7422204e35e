using System.Buffers;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;

namespace Berth.Benchmarks.Core;

/// <summary>The zero-allocation writer article's string case: a 65-character ASCII string appended to a builder that is already set up.</summary>
[MemoryDiagnoser]
public class PacketStringBenchmarks
{
    private static readonly string Text = new('A', 65);
    private ListPacketBuilder _list = null!;
    private ArrayBufferWriter<byte> _array = null!;
    private SpanPerFieldBuilder _spanPerField = null!;

    /// <summary>Builds every writer once, as the article did, so only appends are measured.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _list = new ListPacketBuilder(isLittleEndian: true);
        _array = new ArrayBufferWriter<byte>(256);
        _spanPerField = new SpanPerFieldBuilder(_array, isLittleEndian: true);
    }

    /// <summary>List of bytes and Encoding.ASCII.GetBytes, as the article found it.</summary>
    [Benchmark(Baseline = true)]
    public int ListAndEncoding()
    {
        _list.Clear();
        _list.String(Text);
        return _list.Count;
    }

    /// <summary>The article's fix: GetSpan and Advance around Encoding.ASCII.GetBytes.</summary>
    [Benchmark]
    public int SpanPerField()
    {
        _array.ResetWrittenCount();
        _spanPerField.String(Text);
        return _array.WrittenCount;
    }

    /// <summary>PacketWriter's fixed-length ASCII field (no prefix, as the article's).</summary>
    [Benchmark]
    public int PacketWriter()
    {
        _array.ResetWrittenCount();
        var writer = new PacketWriter(_array);
        writer.WriteFixedAscii(Text, Text.Length);
        writer.Flush();
        return _array.WrittenCount;
    }
}
