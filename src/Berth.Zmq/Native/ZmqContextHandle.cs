using System.Runtime.InteropServices;

namespace Berth.Zmq.Native;

/// <summary>Owns a <c>void*</c> context; releasing it terminates the context (after its sockets are closed).</summary>
internal sealed class ZmqContextHandle : SafeHandle
{
    public ZmqContextHandle(nint context)
        : base(0, ownsHandle: true) => SetHandle(context);

    public override bool IsInvalid => handle == 0;

    protected override bool ReleaseHandle()
    {
        int rc;
        do
        {
            rc = LibZmq.CtxTerm(handle);
        }
        while (rc != 0 && LibZmq.Errno() == ZmqErrors.Interrupted);

        return rc == 0;
    }
}
