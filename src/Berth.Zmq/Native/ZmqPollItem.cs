using System.Runtime.InteropServices;

namespace Berth.Zmq.Native;

/// <summary><c>zmq_pollitem_t</c> on Linux, where <c>zmq_fd_t</c> is an <c>int</c>.</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct ZmqPollItem
{
    public nint Socket;
    public int Fd;
    public short Events;
    public short ReadyEvents;
}
