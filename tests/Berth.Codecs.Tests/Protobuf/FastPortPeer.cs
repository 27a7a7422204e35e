using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using Google.Protobuf;

namespace Berth.Codecs.Tests.Protobuf;

/// <summary>
/// A peer that speaks FastPortSharp's layout on its own, without Berth's code: a little-endian u16 length counting its
/// own two bytes, a little-endian int32 message id, and the body from Google.Protobuf's serializer.
/// </summary>
internal sealed class FastPortPeer : IDisposable
{
    private readonly Socket _socket = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);

    public FastPortPeer(IPEndPoint server)
    {
        _socket.ReceiveTimeout = 30_000;
        _socket.Connect(server);
    }

    public void Send(int messageId, IMessage message) => SendRaw(messageId, message.ToByteArray());

    public void SendRaw(int messageId, byte[] body)
    {
        var packet = new byte[2 + 4 + body.Length];
        BinaryPrimitives.WriteUInt16LittleEndian(packet, checked((ushort)packet.Length));
        BinaryPrimitives.WriteInt32LittleEndian(packet.AsSpan(2), messageId);
        body.CopyTo(packet, 6);
        _socket.Send(packet);
    }

    public (int MessageId, T Message) Receive<T>(MessageParser<T> parser)
        where T : IMessage<T>
    {
        var header = ReceiveExactly(2);
        var rest = ReceiveExactly(BinaryPrimitives.ReadUInt16LittleEndian(header) - 2);
        return (BinaryPrimitives.ReadInt32LittleEndian(rest), parser.ParseFrom(rest, 4, rest.Length - 4));
    }

    /// <summary>True once the server closed the connection (a read returns 0 or the connection is reset).</summary>
    public bool WaitForClose()
    {
        var buffer = new byte[64];
        try
        {
            while (_socket.Receive(buffer) > 0)
            {
            }

            return true;
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionReset)
        {
            return true;
        }
    }

    public void Dispose() => _socket.Dispose();

    private byte[] ReceiveExactly(int count)
    {
        var buffer = new byte[count];
        for (var read = 0; read < count;)
        {
            var n = _socket.Receive(buffer, read, count - read, SocketFlags.None);
            if (n == 0)
            {
                throw new EndOfStreamException("The server closed the connection.");
            }

            read += n;
        }

        return buffer;
    }
}
