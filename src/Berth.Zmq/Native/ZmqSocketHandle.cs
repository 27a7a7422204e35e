using System.Runtime.InteropServices;

namespace Berth.Zmq.Native;

/// <summary>Owns a <c>void*</c> socket; releasing it calls <c>zmq_close</c> exactly once.</summary>
internal sealed class ZmqSocketHandle : SafeHandle
{
    public ZmqSocketHandle(nint socket)
        : base(0, ownsHandle: true) => SetHandle(socket);

    public override bool IsInvalid => handle == 0;

    protected override bool ReleaseHandle() => LibZmq.Close(handle) == 0;
}
