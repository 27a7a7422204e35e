using System.Runtime.CompilerServices;
using System.Text;
using Berth.Zmq.Native;

namespace Berth.Zmq;

public sealed unsafe partial class ZmqSocket
{
    private const int MessageTooLong = 90;

    /// <summary>Receives one frame into <paramref name="buffer"/>, blocking until one arrives (up to <see cref="ReceiveTimeout"/>).</summary>
    /// <param name="buffer">Where the frame is copied.</param>
    /// <returns>The frame size. Check <see cref="ReceiveMore"/> for the rest of a multipart message.</returns>
    /// <exception cref="ZmqException">The frame was longer than <paramref name="buffer"/> (it is consumed; receive into a <see cref="ZmqMessage"/> for unknown sizes).</exception>
    /// <exception cref="TimeoutException"><see cref="ReceiveTimeout"/> elapsed.</exception>
    public int Receive(Span<byte> buffer)
    {
        Enter();
        try
        {
            var size = ReceiveCore(buffer, 0);
            return size >= 0 ? size : throw ReceiveTimedOut();
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Receives one frame into <paramref name="buffer"/> if one is waiting.</summary>
    /// <param name="buffer">Where the frame is copied.</param>
    /// <param name="size">The frame size.</param>
    /// <returns>False when no frame is waiting.</returns>
    public bool TryReceive(Span<byte> buffer, out int size)
    {
        Enter();
        try
        {
            size = ReceiveCore(buffer, DontWaitFlag);
            return size >= 0;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Receives one frame into <paramref name="message"/> (its previous content is released), without copying.</summary>
    /// <param name="message">The frame to fill; <see cref="ZmqMessage.More"/> tells whether more frames follow.</param>
    /// <exception cref="TimeoutException"><see cref="ReceiveTimeout"/> elapsed.</exception>
    public void Receive(ZmqMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        Enter();
        try
        {
            if (!ReceiveMessageCore(message.Pointer, 0))
            {
                throw ReceiveTimedOut();
            }
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Receives one frame into <paramref name="message"/> if one is waiting.</summary>
    /// <param name="message">The frame to fill.</param>
    /// <returns>False when no frame is waiting.</returns>
    public bool TryReceive(ZmqMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        Enter();
        try
        {
            return ReceiveMessageCore(message.Pointer, DontWaitFlag);
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Receives one frame as a new array (convenient, allocates; use a span or <see cref="ZmqMessage"/> on hot paths).</summary>
    /// <returns>The frame bytes.</returns>
    public byte[] ReceiveBytes()
    {
        Enter();
        try
        {
            var msg = Scratch;
            if (!ReceiveMessageCore(msg, 0))
            {
                throw ReceiveTimedOut();
            }

            return new ReadOnlySpan<byte>(LibZmq.MsgData(msg), (int)LibZmq.MsgSize(msg)).ToArray();
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Receives one frame and decodes it as UTF-8.</summary>
    /// <returns>The text.</returns>
    public string ReceiveString()
    {
        Enter();
        try
        {
            var msg = Scratch;
            if (!ReceiveMessageCore(msg, 0))
            {
                throw ReceiveTimedOut();
            }

            return Encoding.UTF8.GetString(LibZmq.MsgData(msg), (int)LibZmq.MsgSize(msg));
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Receives into a span while holding the socket; -1 on EAGAIN.</summary>
    private int ReceiveCore(Span<byte> buffer, int flags)
    {
        int size;
        fixed (byte* bytes = buffer)
        {
            while ((size = LibZmq.Recv(_socket, bytes, (nuint)buffer.Length, flags)) < 0)
            {
                var error = LastError();
                if (error == ZmqErrors.Again)
                {
                    return -1;
                }

                if (error != ZmqErrors.Interrupted)
                {
                    throw Failure(error, "zmq_recv");
                }
            }
        }

        if (size > buffer.Length)
        {
            throw FrameTooLong(size, buffer.Length);
        }

        return size;
    }

    /// <summary>The exception for a frame longer than the caller's buffer (built outside the hot path, as <see cref="ReceiveTimedOut"/>).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ZmqException FrameTooLong(int size, int bufferLength) =>
        new(MessageTooLong, $"a {size}-byte frame did not fit the {bufferLength}-byte buffer and was truncated; receive into a ZmqMessage when sizes are unknown");

    private bool ReceiveMessageCore(ZmqMsg* msg, int flags)
    {
        while (LibZmq.MsgRecv(msg, _socket, flags) < 0)
        {
            var error = LastError();
            if (error == ZmqErrors.Again)
            {
                return false;
            }

            if (error != ZmqErrors.Interrupted)
            {
                throw Failure(error, "zmq_msg_recv");
            }
        }

        return true;
    }
}
