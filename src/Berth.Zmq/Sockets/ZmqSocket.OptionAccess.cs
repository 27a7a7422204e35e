using System.Text;
using Berth.Zmq.Native;

namespace Berth.Zmq;

public sealed unsafe partial class ZmqSocket
{
    private const int MaxOptionBytes = 256;

    internal void SetOption(ZmqOption option, int value) => SetOption(option, &value, sizeof(int));

    internal void SetOption(ZmqOption option, long value) => SetOption(option, &value, sizeof(long));

    internal void SetOption(ZmqOption option, ReadOnlySpan<byte> value)
    {
        fixed (byte* bytes = value)
        {
            SetOption(option, bytes, value.Length);
        }
    }

    internal void SetOption(ZmqOption option, string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        SetOption(option, Encoding.UTF8.GetBytes(value));
    }

    internal int GetInt32Option(ZmqOption option)
    {
        int value;
        var size = (nuint)sizeof(int);
        GetOption(option, &value, &size);
        return value;
    }

    internal long GetInt64Option(ZmqOption option)
    {
        long value;
        var size = (nuint)sizeof(long);
        GetOption(option, &value, &size);
        return value;
    }

    internal byte[] GetBytesOption(ZmqOption option)
    {
        var buffer = stackalloc byte[MaxOptionBytes];
        var size = (nuint)MaxOptionBytes;
        GetOption(option, buffer, &size);
        return new ReadOnlySpan<byte>(buffer, (int)size).ToArray();
    }

    /// <summary>Reads a NUL-terminated string option (endpoints, Z85 keys).</summary>
    internal string GetStringOption(ZmqOption option)
    {
        var buffer = stackalloc byte[MaxOptionBytes];
        var size = (nuint)MaxOptionBytes;
        GetOption(option, buffer, &size);
        var text = new ReadOnlySpan<byte>(buffer, (int)size);
        var end = text.IndexOf((byte)0);
        return Encoding.UTF8.GetString(end >= 0 ? text[..end] : text);
    }

    /// <summary>Reads a CURVE key as Z85: libzmq picks the format from the buffer size, 41 bytes meaning Z85 plus NUL.</summary>
    internal string GetZ85KeyOption(ZmqOption option)
    {
        const int Z85KeyWithTerminator = 41;
        var buffer = stackalloc byte[Z85KeyWithTerminator];
        var size = (nuint)Z85KeyWithTerminator;
        GetOption(option, buffer, &size);
        return Encoding.ASCII.GetString(buffer, Z85KeyWithTerminator - 1);
    }

    private void SetOption(ZmqOption option, void* value, int size)
    {
        Enter();
        try
        {
            if (LibZmq.SetSockOpt(_socket, (int)option, value, (nuint)size) != 0)
            {
                throw Failure(LastError(), $"zmq_setsockopt(ZMQ_{option})");
            }
        }
        finally
        {
            Exit();
        }
    }

    private void GetOption(ZmqOption option, void* value, nuint* size)
    {
        Enter();
        try
        {
            if (LibZmq.GetSockOpt(_socket, (int)option, value, size) != 0)
            {
                throw Failure(LastError(), $"zmq_getsockopt(ZMQ_{option})");
            }
        }
        finally
        {
            Exit();
        }
    }
}
