using System.Buffers;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;

namespace Berth.Benchmarks.Core;

/// <summary>
/// The zero-allocation writer article's case: fourteen integer fields (byte, short, ushort, int, uint, long, ulong,
/// twice) appended to a builder that is already set up, in both byte orders.
/// </summary>
[MemoryDiagnoser]
public class PacketBuilderBenchmarks
{
    private ListPacketBuilder _list = null!;
    private ArrayBufferWriter<byte> _array = null!;
    private SpanPerFieldBuilder _spanPerField = null!;
    private PooledBufferWriter _pooled = null!;
    private byte _one;

    /// <summary>Byte order of the multi-byte fields.</summary>
    [Params(Endianness.Little, Endianness.Big)]
    public Endianness Order { get; set; }

    /// <summary>Builds every writer once, as the article did, so only appends are measured.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _one = 1;
        _list = new ListPacketBuilder(Order == Endianness.Little);
        _array = new ArrayBufferWriter<byte>(256);
        _spanPerField = new SpanPerFieldBuilder(_array, Order == Endianness.Little);
        _pooled = new PooledBufferWriter();
    }

    /// <summary>Returns the pooled arrays.</summary>
    [GlobalCleanup]
    public void Cleanup() => _pooled.Dispose();

    /// <summary>List of bytes and BitConverter, as the article found it.</summary>
    [Benchmark(Baseline = true)]
    public int ListAndBitConverter()
    {
        _list.Clear();
        var v = _one;
        _list.Byte(v).Short(v).UShort(v).Int(v).UInt(v).Long(v).ULong(v)
            .Byte(v).Short(v).UShort(v).Int(v).UInt(v).Long(v).ULong(v);
        return _list.Count;
    }

    /// <summary>The article's fix: GetSpan and Advance on an ArrayBufferWriter for every field.</summary>
    [Benchmark]
    public int SpanPerField()
    {
        _array.ResetWrittenCount();
        var v = _one;
        _spanPerField.Byte(v).Short(v).UShort(v).Int(v).UInt(v).Long(v).ULong(v)
            .Byte(v).Short(v).UShort(v).Int(v).UInt(v).Long(v).ULong(v);
        return _array.WrittenCount;
    }

    /// <summary>PacketWriter over the same ArrayBufferWriter: one span, one advance.</summary>
    [Benchmark]
    public int PacketWriterOnArray()
    {
        _array.ResetWrittenCount();
        var writer = new PacketWriter(_array, Order);
        WriteFields(ref writer, _one);
        writer.Flush();
        return _array.WrittenCount;
    }

    /// <summary>PacketWriter over pooled segments, returned to the pool after every packet (the send path's case).</summary>
    [Benchmark]
    public long PacketWriterOnPool()
    {
        var writer = new PacketWriter(_pooled, Order);
        WriteFields(ref writer, _one);
        writer.Flush();
        var written = _pooled.WrittenCount;
        _pooled.Reset();
        return written;
    }

    private static void WriteFields(ref PacketWriter writer, byte v)
    {
        for (var i = 0; i < 2; i++)
        {
            writer.WriteByte(v);
            writer.WriteInt16(v);
            writer.WriteUInt16(v);
            writer.WriteInt32(v);
            writer.WriteUInt32(v);
            writer.WriteInt64(v);
            writer.WriteUInt64(v);
        }
    }
}
