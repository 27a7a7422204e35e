using System.Buffers;
using Berth.Buffers;
using Berth.Messages;

namespace Berth.Tests.Messages;

/// <summary>Encodes and decodes whole message bodies for the tests.</summary>
internal static class MessageBytes
{
    public static byte[] Encode<T>(in T message)
        where T : IMessage<T>
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output, T.ByteOrder);
        T.Write(ref writer, message);
        writer.Flush();
        return output.WrittenSpan.ToArray();
    }

    public static T Decode<T>(ReadOnlySpan<byte> body)
        where T : IMessage<T>
    {
        var reader = new PacketReader(body, T.ByteOrder);
        return T.Read(ref reader);
    }

    public static T Decode<T>(in ReadOnlySequence<byte> body)
        where T : IMessage<T>
    {
        var reader = new PacketReader(body, T.ByteOrder);
        return T.Read(ref reader);
    }

    public static MessageFormatException Reject<T>(byte[] body)
        where T : IMessage<T> => Assert.Throws<MessageFormatException>(() => Decode<T>(body));
}
