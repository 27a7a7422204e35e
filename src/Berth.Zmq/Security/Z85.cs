using System.Text;
using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>ZeroMQ's Z85 text encoding (RFC 32): 4 bytes become 5 printable characters; used for CURVE keys.</summary>
public static unsafe class Z85
{
    /// <summary>Encodes bytes whose length is a multiple of 4.</summary>
    /// <param name="data">The bytes.</param>
    /// <returns>The Z85 text, 5/4 as long.</returns>
    public static string Encode(ReadOnlySpan<byte> data)
    {
        if (data.Length % 4 != 0)
        {
            throw new ArgumentException("Z85 encodes whole 4-byte groups", nameof(data));
        }

        LibZmqLoader.EnsureLoaded();
        var text = new byte[(data.Length / 4 * 5) + 1];
        fixed (byte* source = data)
        fixed (byte* destination = text)
        {
            if (LibZmq.Z85Encode(destination, source, (nuint)data.Length) == null)
            {
                throw ZmqException.FromErrno("zmq_z85_encode");
            }
        }

        return Encoding.ASCII.GetString(text, 0, text.Length - 1);
    }

    /// <summary>Decodes Z85 text whose length is a multiple of 5.</summary>
    /// <param name="text">The Z85 text.</param>
    /// <returns>The bytes, 4/5 as long.</returns>
    public static byte[] Decode(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (text.Length % 5 != 0)
        {
            throw new ArgumentException("Z85 text comes in whole 5-character groups", nameof(text));
        }

        LibZmqLoader.EnsureLoaded();
        var source = Encoding.ASCII.GetBytes(text + "\0");
        var data = new byte[text.Length / 5 * 4];
        fixed (byte* input = source)
        fixed (byte* output = data)
        {
            if (LibZmq.Z85Decode(output, input) == null)
            {
                throw new ArgumentException("not valid Z85 text", nameof(text));
            }
        }

        return data;
    }
}
