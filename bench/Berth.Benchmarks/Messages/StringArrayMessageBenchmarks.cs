using System.Buffers;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using Berth.MemoryPack;
using Berth.Messages;
using Berth.Protobuf;
using Google.Protobuf;
using MemoryPack;
using ProtobufProfile = Berth.Benchmarks.Messages.Protobuf.Profile;

namespace Berth.Benchmarks.Messages;

/// <summary>
/// Serialize and deserialize one message with an id, a 24-character string and an array of 16 ints: the generated
/// contract against the same fields by hand on PacketWriter/PacketReader (the baseline), Google.Protobuf and
/// MemoryPack, each called directly and through its Berth codec, and the generated contract with the name as a
/// <see cref="Utf8Field"/> view. Every method returns the message it read, as a reader hands it to its caller: a
/// message that never left the method could live on the stack (the JIT's escape analysis does that for the hand-written
/// method's <see cref="Profile"/>), which no reader that returns its message gets. Every form but the view allocates the
/// message, its string and its array when it reads (the view its array); the diagnoser shows what else.
/// </summary>
[MemoryDiagnoser]
public class StringArrayMessageBenchmarks
{
    /// <summary>The message's name: 24 characters, so 24 UTF-8 bytes.</summary>
    public const string ProfileName = "player-with-a-long-name!";

    /// <summary>How many ints the message's array holds.</summary>
    public const int ProfileScoreCount = 16;

    private readonly ArrayBufferWriter<byte> _buffer = new(1024);
    private Profile _profile = null!;
    private MemoryPackProfile _memoryPackProfile = null!;
    private readonly ProtobufCodec<ProtobufProfile> _protobufCodec = new(2, ProtobufProfile.Parser);
    private readonly MemoryPackCodec<MemoryPackProfile> _memoryPackCodec = new(2);
    private ProtobufProfile _protobufProfile = null!;
    private ProfileView _profileView;

    /// <summary>One value of each form.</summary>
    [GlobalSetup]
    public void Setup()
    {
        var scores = Enumerable.Range(0, ProfileScoreCount).Select(i => i * 1_000_003).ToArray();
        _profile = new Profile { Id = 42, Name = ProfileName, Scores = scores };
        _memoryPackProfile = new MemoryPackProfile { Id = _profile.Id, Name = _profile.Name, Scores = scores };
        _protobufProfile = new ProtobufProfile { Id = _profile.Id, Name = _profile.Name };
        _protobufProfile.Scores.AddRange(scores);
        _profileView = new ProfileView { Id = _profile.Id, Name = new Utf8Field(System.Text.Encoding.UTF8.GetBytes(_profile.Name)), Scores = scores };
    }

    /// <summary>The same fields written and read by hand: a varint-prefixed string, a count and the ints as one span.</summary>
    [Benchmark(Baseline = true)]
    public Profile HandWritten()
    {
        _buffer.ResetWrittenCount();
        var writer = new PacketWriter(_buffer);
        writer.WriteInt32(_profile.Id);
        writer.WriteUtf8(_profile.Name, StringLengthPrefix.VarInt);
        writer.WriteVarUInt32((uint)_profile.Scores.Length);
        writer.WriteElements<int>(_profile.Scores);
        writer.Flush();
        var reader = new PacketReader(_buffer.WrittenSpan);
        var read = new Profile { Id = reader.ReadInt32(), Name = reader.ReadUtf8(StringLengthPrefix.VarInt) };
        var scores = new int[reader.ReadVarUInt32()];
        reader.ReadElements<int>(scores);
        read.Scores = scores;
        return read;
    }

    /// <summary>The generated contract.</summary>
    [Benchmark]
    public Profile Generated()
    {
        _buffer.ResetWrittenCount();
        var writer = new PacketWriter(_buffer);
        Profile.Write(ref writer, _profile);
        writer.Flush();
        var reader = new PacketReader(_buffer.WrittenSpan);
        return Profile.Read(ref reader);
    }

    /// <summary>Google.Protobuf into the same buffer writer, parsed from the written span.</summary>
    [Benchmark]
    public ProtobufProfile Protobuf()
    {
        _buffer.ResetWrittenCount();
        _protobufProfile.WriteTo(_buffer);
        return ProtobufProfile.Parser.ParseFrom(_buffer.WrittenSpan);
    }

    /// <summary>MemoryPack into the same buffer writer, deserialized from the written span.</summary>
    [Benchmark]
    public MemoryPackProfile MemoryPack()
    {
        _buffer.ResetWrittenCount();
        MemoryPackSerializer.Serialize(_buffer, _memoryPackProfile);
        return MemoryPackSerializer.Deserialize<MemoryPackProfile>(_buffer.WrittenSpan)!;
    }

    /// <summary>The generated contract with the name as a view of the buffer: read from a sequence, as a connection reads a frame.</summary>
    [Benchmark]
    public ProfileView GeneratedView()
    {
        _buffer.ResetWrittenCount();
        var writer = new PacketWriter(_buffer);
        ProfileView.Write(ref writer, _profileView);
        writer.Flush();
        var reader = new PacketReader(new ReadOnlySequence<byte>(_buffer.WrittenMemory));
        return ProfileView.Read(ref reader);
    }

    /// <summary>Google.Protobuf through <see cref="ProtobufCodec{TMessage}"/>: sized, written into the packet writer, parsed from a sequence.</summary>
    [Benchmark]
    public ProtobufProfile ProtobufCodec()
    {
        _buffer.ResetWrittenCount();
        var writer = new PacketWriter(_buffer);
        _protobufCodec.Write(ref writer, _protobufProfile);
        writer.Flush();
        return _protobufCodec.Read(new ReadOnlySequence<byte>(_buffer.WrittenMemory));
    }

    /// <summary>MemoryPack through <see cref="MemoryPackCodec{TMessage}"/>: its scratch buffer copied into the packet writer, read from a sequence.</summary>
    [Benchmark]
    public MemoryPackProfile MemoryPackCodec()
    {
        _buffer.ResetWrittenCount();
        var writer = new PacketWriter(_buffer);
        _memoryPackCodec.Write(ref writer, _memoryPackProfile);
        writer.Flush();
        return _memoryPackCodec.Read(new ReadOnlySequence<byte>(_buffer.WrittenMemory));
    }
}
