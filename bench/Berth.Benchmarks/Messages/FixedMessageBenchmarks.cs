using System.Buffers;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using Berth.MemoryPack;
using Berth.Messages;
using Berth.Protobuf;
using Google.Protobuf;
using MemoryPack;
using ProtobufPosition = Berth.Benchmarks.Messages.Protobuf.Position;

namespace Berth.Benchmarks.Messages;

/// <summary>
/// Serialize and deserialize one five-field message (an int, three floats, a long) into a reused buffer: the
/// generated contract against the same fields written by hand on PacketWriter/PacketReader (the baseline),
/// Google.Protobuf (fixed-width fields, see messages.proto) and MemoryPack (an unmanaged struct: one copy), each
/// called directly and through its Berth codec (Berth.Protobuf, Berth.MemoryPack) as a connection would call it.
/// </summary>
[MemoryDiagnoser]
public class FixedMessageBenchmarks
{
    private readonly ArrayBufferWriter<byte> _buffer = new(256);
    private Position _position;
    private MemoryPackPosition _memoryPackPosition;
    private readonly ProtobufCodec<ProtobufPosition> _protobufCodec = new(1, ProtobufPosition.Parser);
    private readonly MemoryPackCodec<MemoryPackPosition> _memoryPackCodec = new(1);
    private ProtobufPosition _protobufPosition = null!;

    /// <summary>One value of each form, with large ids and ticks.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _position = new Position { Id = 123_456_789, X = 1.5f, Y = -2.25f, Z = 1e6f, Tick = 9_876_543_210_123 };
        _memoryPackPosition = new MemoryPackPosition { Id = _position.Id, X = _position.X, Y = _position.Y, Z = _position.Z, Tick = _position.Tick };
        _protobufPosition = new ProtobufPosition { Id = _position.Id, X = _position.X, Y = _position.Y, Z = _position.Z, Tick = _position.Tick };
    }

    /// <summary>The same fields written and read by hand.</summary>
    [Benchmark(Baseline = true)]
    public long HandWritten()
    {
        _buffer.ResetWrittenCount();
        var writer = new PacketWriter(_buffer);
        writer.WriteInt32(_position.Id);
        writer.WriteSingle(_position.X);
        writer.WriteSingle(_position.Y);
        writer.WriteSingle(_position.Z);
        writer.WriteInt64(_position.Tick);
        writer.Flush();
        var reader = new PacketReader(_buffer.WrittenSpan);
        var read = new Position { Id = reader.ReadInt32(), X = reader.ReadSingle(), Y = reader.ReadSingle(), Z = reader.ReadSingle(), Tick = reader.ReadInt64() };
        return read.Tick;
    }

    /// <summary>
    /// The generated contract through the entries that write a body into a buffer writer and read it from a span, as
    /// MemoryPack's are called below: for this struct one copy each way.
    /// </summary>
    [Benchmark]
    public long Generated()
    {
        _buffer.ResetWrittenCount();
        MessageWriting.Write(_buffer, _position);
        return MessageReading.Read<Position>(_buffer.WrittenSpan).Tick;
    }

    /// <summary>Google.Protobuf into the same buffer writer, parsed from the written span.</summary>
    [Benchmark]
    public long Protobuf()
    {
        _buffer.ResetWrittenCount();
        _protobufPosition.WriteTo(_buffer);
        return ProtobufPosition.Parser.ParseFrom(_buffer.WrittenSpan).Tick;
    }

    /// <summary>MemoryPack into the same buffer writer, deserialized from the written span.</summary>
    [Benchmark]
    public long MemoryPack()
    {
        _buffer.ResetWrittenCount();
        MemoryPackSerializer.Serialize(_buffer, _memoryPackPosition);
        return MemoryPackSerializer.Deserialize<MemoryPackPosition>(_buffer.WrittenSpan).Tick;
    }

    /// <summary>Google.Protobuf through <see cref="ProtobufCodec{TMessage}"/>: sized, written into the packet writer, parsed from a sequence.</summary>
    [Benchmark]
    public long ProtobufCodec()
    {
        _buffer.ResetWrittenCount();
        var writer = new PacketWriter(_buffer);
        _protobufCodec.Write(ref writer, _protobufPosition);
        writer.Flush();
        return _protobufCodec.Read(new ReadOnlySequence<byte>(_buffer.WrittenMemory)).Tick;
    }

    /// <summary>MemoryPack through <see cref="MemoryPackCodec{TMessage}"/>: its scratch buffer copied into the packet writer, read from a sequence.</summary>
    [Benchmark]
    public long MemoryPackCodec()
    {
        _buffer.ResetWrittenCount();
        var writer = new PacketWriter(_buffer);
        _memoryPackCodec.Write(ref writer, _memoryPackPosition);
        writer.Flush();
        return _memoryPackCodec.Read(new ReadOnlySequence<byte>(_buffer.WrittenMemory)).Tick;
    }
}
