using System.Runtime.InteropServices;

namespace Berth.Zmq.Native;

/// <summary>The Linux epoll and eventfd calls the readiness reactor needs.</summary>
internal static unsafe partial class LinuxEvents
{
    public const int EpollIn = 0x001;
    public const uint EpollEdgeTriggered = 1u << 31;
    public const int EpollAdd = 1;
    public const int EpollDelete = 2;
    public const int CloseOnExec = 0x80000;
    public const int NonBlocking = 0x800;

    private const string Library = "libc";

    /// <summary>x86-64 packs <c>struct epoll_event</c> to 12 bytes; other 64-bit ABIs align the data field to 8.</summary>
    public static readonly int EventSize = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 12 : 16;

    public static int DataOffset => EventSize - sizeof(ulong);

    static LinuxEvents() => LibZmqLoader.Register();

    [LibraryImport(Library, EntryPoint = "epoll_create1", SetLastError = true)]
    public static partial int EpollCreate(int flags);

    [LibraryImport(Library, EntryPoint = "epoll_ctl", SetLastError = true)]
    public static partial int EpollControl(int epoll, int operation, int fd, byte* ev);

    [LibraryImport(Library, EntryPoint = "epoll_wait", SetLastError = true)]
    public static partial int EpollWait(int epoll, byte* events, int maxEvents, int timeoutMilliseconds);

    [LibraryImport(Library, EntryPoint = "eventfd", SetLastError = true)]
    public static partial int EventFd(uint initialValue, int flags);

    [LibraryImport(Library, EntryPoint = "write", SetLastError = true)]
    public static partial nint Write(int fd, void* buffer, nint count);

    [LibraryImport(Library, EntryPoint = "close", SetLastError = true)]
    public static partial int Close(int fd);

    public static int Control(int epoll, int operation, int fd, uint events, ulong data)
    {
        var ev = stackalloc byte[16];
        *(uint*)ev = events;
        *(ulong*)(ev + DataOffset) = data;
        return EpollControl(epoll, operation, fd, ev);
    }
}
