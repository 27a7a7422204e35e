using System.Runtime.InteropServices;

namespace Berth.Zmq.Native;

/// <summary>The libzmq 4.3 C API. Pointers are passed raw: lifetime is guarded by the owning objects, not per call.</summary>
internal static unsafe partial class LibZmq
{
    private const string Library = "libzmq";

    static LibZmq() => LibZmqLoader.Register();

    [LibraryImport(Library, EntryPoint = "zmq_version")]
    public static partial void Version(int* major, int* minor, int* patch);

    [LibraryImport(Library, EntryPoint = "zmq_errno")]
    public static partial int Errno();

    [LibraryImport(Library, EntryPoint = "zmq_strerror")]
    public static partial byte* StrError(int errnum);

    [LibraryImport(Library, EntryPoint = "zmq_has", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Has(string capability);

    [LibraryImport(Library, EntryPoint = "zmq_ctx_new")]
    public static partial nint CtxNew();

    [LibraryImport(Library, EntryPoint = "zmq_ctx_term")]
    public static partial int CtxTerm(nint context);

    [LibraryImport(Library, EntryPoint = "zmq_ctx_shutdown")]
    public static partial int CtxShutdown(nint context);

    [LibraryImport(Library, EntryPoint = "zmq_ctx_set")]
    public static partial int CtxSet(nint context, int option, int value);

    [LibraryImport(Library, EntryPoint = "zmq_ctx_get")]
    public static partial int CtxGet(nint context, int option);

    [LibraryImport(Library, EntryPoint = "zmq_socket")]
    public static partial nint Socket(nint context, int type);

    [LibraryImport(Library, EntryPoint = "zmq_close")]
    public static partial int Close(nint socket);

    [LibraryImport(Library, EntryPoint = "zmq_setsockopt")]
    public static partial int SetSockOpt(nint socket, int option, void* value, nuint size);

    [LibraryImport(Library, EntryPoint = "zmq_getsockopt")]
    public static partial int GetSockOpt(nint socket, int option, void* value, nuint* size);

    [LibraryImport(Library, EntryPoint = "zmq_bind", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Bind(nint socket, string endpoint);

    [LibraryImport(Library, EntryPoint = "zmq_connect", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Connect(nint socket, string endpoint);

    [LibraryImport(Library, EntryPoint = "zmq_unbind", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Unbind(nint socket, string endpoint);

    [LibraryImport(Library, EntryPoint = "zmq_disconnect", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Disconnect(nint socket, string endpoint);

    [LibraryImport(Library, EntryPoint = "zmq_send")]
    public static partial int Send(nint socket, byte* buffer, nuint length, int flags);

    [LibraryImport(Library, EntryPoint = "zmq_recv")]
    public static partial int Recv(nint socket, byte* buffer, nuint length, int flags);

    [LibraryImport(Library, EntryPoint = "zmq_msg_init")]
    public static partial int MsgInit(ZmqMsg* message);

    [LibraryImport(Library, EntryPoint = "zmq_msg_init_size")]
    public static partial int MsgInitSize(ZmqMsg* message, nuint size);

    [LibraryImport(Library, EntryPoint = "zmq_msg_init_data")]
    public static partial int MsgInitData(ZmqMsg* message, void* data, nuint size, delegate* unmanaged[Cdecl]<nint, nint, void> free, nint hint);

    [LibraryImport(Library, EntryPoint = "zmq_msg_send")]
    public static partial int MsgSend(ZmqMsg* message, nint socket, int flags);

    [LibraryImport(Library, EntryPoint = "zmq_msg_recv")]
    public static partial int MsgRecv(ZmqMsg* message, nint socket, int flags);

    [LibraryImport(Library, EntryPoint = "zmq_msg_close")]
    public static partial int MsgClose(ZmqMsg* message);

    [LibraryImport(Library, EntryPoint = "zmq_msg_copy")]
    public static partial int MsgCopy(ZmqMsg* destination, ZmqMsg* source);

    [LibraryImport(Library, EntryPoint = "zmq_msg_data")]
    public static partial byte* MsgData(ZmqMsg* message);

    [LibraryImport(Library, EntryPoint = "zmq_msg_size")]
    public static partial nuint MsgSize(ZmqMsg* message);

    [LibraryImport(Library, EntryPoint = "zmq_msg_more")]
    public static partial int MsgMore(ZmqMsg* message);

    [LibraryImport(Library, EntryPoint = "zmq_msg_gets", StringMarshalling = StringMarshalling.Utf8)]
    public static partial byte* MsgGets(ZmqMsg* message, string property);

    [LibraryImport(Library, EntryPoint = "zmq_poll")]
    public static partial int Poll(ZmqPollItem* items, int count, nint timeoutMilliseconds);

    /// <summary><c>zmq_poll</c> over items laid out by <see cref="PollItemArray"/>.</summary>
    [LibraryImport(Library, EntryPoint = "zmq_poll")]
    public static partial int PollRaw(void* items, int count, nint timeoutMilliseconds);

    [LibraryImport(Library, EntryPoint = "zmq_proxy_steerable")]
    public static partial int ProxySteerable(nint frontend, nint backend, nint capture, nint control);

    [LibraryImport(Library, EntryPoint = "zmq_socket_monitor", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int SocketMonitor(nint socket, string? endpoint, int events);

    [LibraryImport(Library, EntryPoint = "zmq_curve_keypair")]
    public static partial int CurveKeypair(byte* publicKey, byte* secretKey);

    [LibraryImport(Library, EntryPoint = "zmq_curve_public")]
    public static partial int CurvePublic(byte* publicKey, byte* secretKey);

    [LibraryImport(Library, EntryPoint = "zmq_z85_encode")]
    public static partial byte* Z85Encode(byte* destination, byte* data, nuint size);

    [LibraryImport(Library, EntryPoint = "zmq_z85_decode")]
    public static partial byte* Z85Decode(byte* destination, byte* text);
}
