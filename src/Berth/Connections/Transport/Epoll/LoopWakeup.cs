using System.Runtime.InteropServices;
using Berth.Interop;

namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// An eventfd in a loop's epoll set, so another thread can end the loop's wait: a loop that waits for events with no
/// timeout would otherwise not see a timer attached meanwhile (<see cref="EpollLoop.Attach"/>). Signalled only on
/// attach, never per message.
/// </summary>
internal sealed unsafe partial class LoopWakeup
{
    /// <summary>The epoll data word of the wake-up: its slot is past any <see cref="EpollRegistrations"/> slot.</summary>
    public const ulong Token = ulong.MaxValue;

    private const int NonBlocking = 0x800;
    private const string Library = "libc";

    private readonly int _descriptor;

    /// <exception cref="System.Net.Sockets.SocketException">The eventfd could not be made or watched.</exception>
    public LoopWakeup(int epoll)
    {
        _descriptor = EventFd(0, NonBlocking | LinuxEpoll.CloseOnExec);
        if (_descriptor < 0 || LinuxEpoll.Control(epoll, LinuxEpoll.Add, _descriptor, LinuxEpoll.In | LinuxEpoll.EdgeTriggered, Token) != 0)
        {
            throw new System.Net.Sockets.SocketException();
        }
    }

    /// <summary>From any thread: ends the loop's current or next wait.</summary>
    public void Signal()
    {
        ulong one = 1;
        _ = Write(_descriptor, &one, sizeof(ulong));
    }

    /// <summary>On the loop's thread, after the wake-up's event: resets the counter.</summary>
    public void Clear()
    {
        ulong count;
        _ = Read(_descriptor, &count, sizeof(ulong));
    }

    [LibraryImport(Library, EntryPoint = "eventfd", SetLastError = true)]
    private static partial int EventFd(uint initialValue, int flags);

    [LibraryImport(Library, EntryPoint = "write")]
    private static partial nint Write(int fd, void* buffer, nint count);

    [LibraryImport(Library, EntryPoint = "read")]
    private static partial nint Read(int fd, void* buffer, nint count);
}
