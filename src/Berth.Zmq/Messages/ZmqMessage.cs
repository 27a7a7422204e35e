using System.Runtime.InteropServices;
using System.Text;
using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>
/// One reusable libzmq message frame (<c>zmq_msg_t</c>). The 64-byte frame lives in one native block for the life of
/// this object, so receiving into the same instance again and again allocates nothing. Not thread-safe.
/// After a successful send the frame is empty again; after a receive it holds the received bytes until the next call.
/// </summary>
public sealed unsafe class ZmqMessage : IDisposable
{
    private ZmqMsg* _msg;

    /// <summary>Creates an empty frame.</summary>
    /// <exception cref="ZmqLibraryNotFoundException">libzmq is not installed.</exception>
    public ZmqMessage()
    {
        LibZmqLoader.EnsureLoaded();
        _msg = (ZmqMsg*)NativeMemory.AlignedAlloc((nuint)sizeof(ZmqMsg), (nuint)sizeof(nint));
        LibZmq.MsgInit(_msg);
    }

    /// <summary>Releases the frame if <see cref="Dispose"/> was never called.</summary>
    ~ZmqMessage() => Free();

    /// <summary>The frame size in bytes.</summary>
    public int Size => (int)LibZmq.MsgSize(Pointer);

    /// <summary>The frame bytes; valid until the frame is sent, received into again, re-initialized or disposed.</summary>
    public Span<byte> Data
    {
        get
        {
            var msg = Pointer;
            return new Span<byte>(LibZmq.MsgData(msg), (int)LibZmq.MsgSize(msg));
        }
    }

    /// <summary>True when this received frame is followed by more frames of the same multipart message.</summary>
    public bool More => LibZmq.MsgMore(Pointer) != 0;

    internal ZmqMsg* Pointer
    {
        get
        {
            ObjectDisposedException.ThrowIf(_msg == null, this);
            return _msg;
        }
    }

    /// <summary>Reads connection metadata of a received frame (<c>Socket-Type</c>, <c>Routing-Id</c>, <c>Peer-Address</c>, <c>User-Id</c>, or any ZMTP property).</summary>
    /// <param name="property">The property name.</param>
    /// <returns>The value, or null when the frame carries no such property.</returns>
    public string? GetMetadata(string property)
    {
        ArgumentNullException.ThrowIfNull(property);
        var value = LibZmq.MsgGets(Pointer, property);
        return value == null ? null : Marshal.PtrToStringUTF8((nint)value);
    }

    /// <summary>Decodes the frame as UTF-8.</summary>
    /// <returns>The text.</returns>
    public override string ToString() => _msg == null ? string.Empty : Encoding.UTF8.GetString(Data);

    /// <summary>Makes the frame empty, releasing its previous content.</summary>
    public void Clear()
    {
        var msg = Pointer;
        LibZmq.MsgClose(msg);
        LibZmq.MsgInit(msg);
    }

    /// <summary>Makes the frame hold <paramref name="size"/> bytes of libzmq-owned memory to be filled through <see cref="Data"/>.</summary>
    /// <param name="size">The frame size.</param>
    public void InitSize(int size)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(size);
        var msg = Pointer;
        LibZmq.MsgClose(msg);
        if (LibZmq.MsgInitSize(msg, (nuint)size) != 0)
        {
            LibZmq.MsgInit(msg);
            throw ZmqException.FromErrno("zmq_msg_init_size");
        }
    }

    /// <summary>Makes the frame a copy of <paramref name="data"/>.</summary>
    /// <param name="data">The bytes to copy.</param>
    public void InitCopy(ReadOnlySpan<byte> data)
    {
        InitSize(data.Length);
        data.CopyTo(new Span<byte>(LibZmq.MsgData(_msg), data.Length));
    }

    /// <summary>
    /// Zero-copy frame over an array rented from the binding's bounded zero-copy pool: fill <see cref="Data"/>, send,
    /// and libzmq hands the array back to the pool (from its I/O thread) once the bytes are on the wire.
    /// </summary>
    /// <param name="size">The frame size.</param>
    public void InitPooled(int size)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(size);
        var msg = Pointer;
        LibZmq.MsgClose(msg);
        ZmqZeroCopy.InitPooled(msg, ZmqZeroCopy.Pool.Rent(size), size);
    }

    /// <summary>
    /// Zero-copy frame over caller-owned native memory. libzmq calls <paramref name="free"/> exactly once, possibly from
    /// its I/O thread, when it no longer needs the bytes (also when the frame is closed unsent).
    /// </summary>
    /// <param name="data">The first byte; must stay valid until <paramref name="free"/> is called.</param>
    /// <param name="size">The number of bytes.</param>
    /// <param name="free">An <c>[UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]</c> function taking (data, hint).</param>
    /// <param name="hint">Passed back to <paramref name="free"/>.</param>
    public void InitNative(void* data, nuint size, delegate* unmanaged[Cdecl]<nint, nint, void> free, nint hint)
    {
        ArgumentNullException.ThrowIfNull(data);
        var msg = Pointer;
        LibZmq.MsgClose(msg);
        if (LibZmq.MsgInitData(msg, data, size, free, hint) != 0)
        {
            LibZmq.MsgInit(msg);
            throw ZmqException.FromErrno("zmq_msg_init_data");
        }
    }

    /// <summary>Releases the frame content and the native block.</summary>
    public void Dispose()
    {
        Free();
        GC.SuppressFinalize(this);
    }

    private void Free()
    {
        var msg = _msg;
        if (msg == null)
        {
            return;
        }

        _msg = null;
        LibZmq.MsgClose(msg);
        NativeMemory.AlignedFree(msg);
    }
}
