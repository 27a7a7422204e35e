using System.Buffers;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using Berth.Messages;
using Google.Protobuf;
using MemoryPack;
using ProtobufProfile = Berth.Benchmarks.Messages.Protobuf.Profile;

namespace Berth.Benchmarks.Messages;

/// <summary>
/// Serialize and deserialize one message with an id, a 24-character string and an array of 16 ints: the generated
/// contract against the same fields by hand on PacketWriter/PacketReader (the baseline), Google.Protobuf and
/// MemoryPack. Every form allocates the message's string and array when it reads; the diagnoser shows what else.
/// </summary>
[MemoryDiagnoser]
public class StringArrayMessageBenchmarks
{
    private readonly ArrayBufferWriter<byte> _buffer = new(1024);
    private Profile _profile = null!;
    private MemoryPackProfile _memoryPackProfile = null!;
    private ProtobufProfile _protobufProfile = null!;

    /// <summary>One value of each form.</summary>
    [GlobalSetup]
    public void Setup()
    {
        var scores = Enumerable.Range(0, 16).Select(i => i * 1_000_003).ToArray();
        _profile = new Profile { Id = 42, Name = "player-with-a-long-name!", Scores = scores };
        _memoryPackProfile = new MemoryPackProfile { Id = _profile.Id, Name = _profile.Name, Scores = scores };
        _protobufProfile = new ProtobufProfile { Id = _profile.Id, Name = _profile.Name };
        _protobufProfile.Scores.AddRange(scores);
    }

    /// <summary>The same fields written and read by hand: a varint-prefixed string, a count and the ints.</summary>
    [Benchmark(Baseline = true)]
    public int HandWritten()
    {
        _buffer.ResetWrittenCount();
        var writer = new PacketWriter(_buffer);
        writer.WriteInt32(_profile.Id);
        writer.WriteUtf8(_profile.Name, StringLengthPrefix.VarInt);
        writer.WriteVarUInt32((uint)_profile.Scores.Length);
        foreach (var score in _profile.Scores)
        {
            writer.WriteInt32(score);
        }

        writer.Flush();
        var reader = new PacketReader(_buffer.WrittenSpan);
        var read = new Profile { Id = reader.ReadInt32(), Name = reader.ReadUtf8(StringLengthPrefix.VarInt) };
        var scores = new int[reader.ReadVarUInt32()];
        for (var i = 0; i < scores.Length; i++)
        {
            scores[i] = reader.ReadInt32();
        }

        read.Scores = scores;
        return read.Scores.Length + read.Name.Length;
    }

    /// <summary>The generated contract.</summary>
    [Benchmark]
    public int Generated()
    {
        _buffer.ResetWrittenCount();
        var writer = new PacketWriter(_buffer);
        Profile.Write(ref writer, _profile);
        writer.Flush();
        var reader = new PacketReader(_buffer.WrittenSpan);
        var read = Profile.Read(ref reader);
        return read.Scores.Length + read.Name.Length;
    }

    /// <summary>Google.Protobuf into the same buffer writer, parsed from the written span.</summary>
    [Benchmark]
    public int Protobuf()
    {
        _buffer.ResetWrittenCount();
        _protobufProfile.WriteTo(_buffer);
        var read = ProtobufProfile.Parser.ParseFrom(_buffer.WrittenSpan);
        return read.Scores.Count + read.Name.Length;
    }

    /// <summary>MemoryPack into the same buffer writer, deserialized from the written span.</summary>
    [Benchmark]
    public int MemoryPack()
    {
        _buffer.ResetWrittenCount();
        MemoryPackSerializer.Serialize(_buffer, _memoryPackProfile);
        var read = MemoryPackSerializer.Deserialize<MemoryPackProfile>(_buffer.WrittenSpan)!;
        return read.Scores.Length + read.Name.Length;
    }
}
