using System.Buffers;
using Berth.AotCodecs;
using Berth.Buffers;
using Berth.Messages;
using Berth.Protobuf;

// Round-trips a protobuf message through its Berth codec and prints one line the smoke run checks: a codec that
// needed reflection the trimmer removed would fail to publish or to run here.
var greeting = new Greeting { Text = "héllo" };
greeting.Numbers.Add(3);
var codec = new ProtobufCodec<Greeting>(1, Greeting.Parser);
var output = new ArrayBufferWriter<byte>();
var writer = new PacketWriter(output);
codec.Write(ref writer, greeting);
writer.Flush();
var read = codec.Read(new ReadOnlySequence<byte>(output.WrittenMemory));

var ok = read.Text == "héllo" && read.Numbers.Count == 1 && read.Numbers[0] == 3;
Console.WriteLine(ok ? "codecs round-tripped" : "codecs differ");
return ok ? 0 : 1;
