using System.Buffers;
using System.Runtime.InteropServices;
using System.Text;
using Berth.Zmq.Native;

namespace Berth.Zmq;

public sealed unsafe partial class ZmqSocket
{
    private const int DontWaitFlag = 1;
    private const int SendMoreFlag = 2;
    private const int StackTextBytes = 512;

    private int _zeroCopyThreshold;
    private ZmqMsg* _scratch;

    /// <summary>
    /// Spans at least this long are sent zero-copy from a pooled array instead of being copied by <c>zmq_send</c>
    /// (default <see cref="ZmqSendStrategy.DefaultZeroCopyThreshold"/>; <see cref="int.MaxValue"/> turns it off).
    /// </summary>
    public int ZeroCopyThreshold
    {
        get => _zeroCopyThreshold;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            _zeroCopyThreshold = value;
        }
    }

    /// <summary>Sends one frame, blocking while the high-water mark is reached (up to <see cref="SendTimeout"/>).</summary>
    /// <param name="data">The frame bytes; copied before the call returns.</param>
    /// <param name="more">True when more frames of the same multipart message follow.</param>
    /// <exception cref="TimeoutException"><see cref="SendTimeout"/> elapsed.</exception>
    public void Send(ReadOnlySpan<byte> data, bool more = false)
    {
        Enter();
        try
        {
            if (!SendCore(data, more ? SendMoreFlag : 0))
            {
                throw SendTimedOut();
            }
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Sends one frame if that is possible without blocking.</summary>
    /// <param name="data">The frame bytes; copied before the call returns.</param>
    /// <param name="more">True when more frames of the same multipart message follow.</param>
    /// <returns>False when the socket cannot accept the frame now (no peer, or the high-water mark is reached).</returns>
    public bool TrySend(ReadOnlySpan<byte> data, bool more = false)
    {
        Enter();
        try
        {
            return SendCore(data, DontWaitFlag | (more ? SendMoreFlag : 0));
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Sends a UTF-8 encoded string as one frame.</summary>
    /// <param name="text">The text.</param>
    /// <param name="more">True when more frames of the same multipart message follow.</param>
    public void Send(string text, bool more = false)
    {
        ArgumentNullException.ThrowIfNull(text);
        var maxBytes = Encoding.UTF8.GetMaxByteCount(text.Length);
        byte[]? rented = null;
        var buffer = maxBytes <= StackTextBytes ? stackalloc byte[StackTextBytes] : (rented = ArrayPool<byte>.Shared.Rent(maxBytes));
        try
        {
            Send(buffer[..Encoding.UTF8.GetBytes(text, buffer)], more);
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    /// <summary>Sends the frame held by <paramref name="message"/> without copying it; on success the message is empty.</summary>
    /// <param name="message">The frame to send.</param>
    /// <param name="more">True when more frames of the same multipart message follow.</param>
    /// <exception cref="TimeoutException"><see cref="SendTimeout"/> elapsed (the message keeps its frame).</exception>
    public void Send(ZmqMessage message, bool more = false)
    {
        ArgumentNullException.ThrowIfNull(message);
        Enter();
        try
        {
            if (!SendMessageCore(message.Pointer, more ? SendMoreFlag : 0))
            {
                throw SendTimedOut();
            }
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Sends the frame held by <paramref name="message"/> if possible without blocking.</summary>
    /// <param name="message">The frame to send.</param>
    /// <param name="more">True when more frames of the same multipart message follow.</param>
    /// <returns>False when the socket cannot accept the frame now; the message then keeps its frame.</returns>
    public bool TrySend(ZmqMessage message, bool more = false)
    {
        ArgumentNullException.ThrowIfNull(message);
        Enter();
        try
        {
            return SendMessageCore(message.Pointer, DontWaitFlag | (more ? SendMoreFlag : 0));
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Sends a span while holding the socket; false on EAGAIN.</summary>
    private bool SendCore(ReadOnlySpan<byte> data, int flags)
    {
        if (data.Length >= _zeroCopyThreshold)
        {
            return SendPooledCore(data, flags);
        }

        fixed (byte* bytes = data)
        {
            while (LibZmq.Send(_socket, bytes, (nuint)data.Length, flags) < 0)
            {
                var error = LastError();
                if (error == ZmqErrors.Again)
                {
                    return false;
                }

                if (error != ZmqErrors.Interrupted)
                {
                    throw Failure(error, "zmq_send");
                }
            }
        }

        return true;
    }

    private bool SendPooledCore(ReadOnlySpan<byte> data, int flags)
    {
        // A send that would block must not rent and copy first: the retries of an async send would each take one more
        // array from the pool than frames in flight, and pay for a copy of a large frame every time.
        if ((flags & DontWaitFlag) != 0 && (RawEvents() & ZmqPollEvents.Out) == 0)
        {
            return false;
        }

        var msg = Scratch;
        var array = ZmqZeroCopy.Pool.Rent(data.Length);
        data.CopyTo(array);
        ZmqZeroCopy.InitPooled(msg, array, data.Length);
        if (SendMessageCore(msg, flags))
        {
            return true;
        }

        LibZmq.MsgClose(msg);
        LibZmq.MsgInit(msg);
        return false;
    }

    private bool SendMessageCore(ZmqMsg* msg, int flags)
    {
        while (LibZmq.MsgSend(msg, _socket, flags) < 0)
        {
            var error = LastError();
            if (error == ZmqErrors.Again)
            {
                return false;
            }

            if (error != ZmqErrors.Interrupted)
            {
                throw Failure(error, "zmq_msg_send");
            }
        }

        return true;
    }

    /// <summary>A frame owned by this socket for internal sends and receives; allocated once.</summary>
    private ZmqMsg* Scratch
    {
        get
        {
            if (_scratch == null)
            {
                _scratch = (ZmqMsg*)NativeMemory.AlignedAlloc((nuint)sizeof(ZmqMsg), (nuint)sizeof(nint));
                LibZmq.MsgInit(_scratch);
            }

            return _scratch;
        }
    }

    private void FreeScratchMessage()
    {
        if (_scratch != null)
        {
            LibZmq.MsgClose(_scratch);
            NativeMemory.AlignedFree(_scratch);
            _scratch = null;
        }
    }
}
