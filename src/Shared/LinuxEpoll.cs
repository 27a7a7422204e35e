using System.Runtime.InteropServices;

namespace Berth.Interop;

/// <summary>
/// The Linux epoll calls and constants, one source compiled into each assembly that drives descriptors itself: the
/// connection engine's event loops and the ZeroMQ readiness reactor.
/// </summary>
internal static unsafe partial class LinuxEpoll
{
    public const uint In = 0x001;
    public const uint Out = 0x004;
    public const uint Error = 0x008;
    public const uint HangUp = 0x010;
    public const uint ReadHangUp = 0x2000;
    public const uint EdgeTriggered = 1u << 31;
    public const int Add = 1;
    public const int Delete = 2;

    /// <summary><c>EPOLL_CLOEXEC</c>, the same value as <c>O_CLOEXEC</c> and <c>EFD_CLOEXEC</c>.</summary>
    public const int CloseOnExec = 0x80000;

    private const string Library = "libc";

    /// <summary>x86-64 packs <c>struct epoll_event</c> to 12 bytes; other 64-bit ABIs align the data field to 8.</summary>
    public static readonly int EventSize = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 12 : 16;

    public static int DataOffset => EventSize - sizeof(ulong);

    [LibraryImport(Library, EntryPoint = "epoll_create1", SetLastError = true)]
    public static partial int Create(int flags);

    [LibraryImport(Library, EntryPoint = "epoll_wait", SetLastError = true)]
    public static partial int Wait(int epoll, byte* events, int maxEvents, int timeoutMilliseconds);

    /// <summary><c>epoll_ctl</c> with the event built here: <paramref name="data"/> comes back with each event.</summary>
    public static int Control(int epoll, int operation, int fd, uint events, ulong data)
    {
        var ev = stackalloc byte[16];
        *(uint*)ev = events;
        *(ulong*)(ev + DataOffset) = data;
        return ControlEvent(epoll, operation, fd, ev);
    }

    /// <summary>The events word of the <paramref name="index"/>th event in a buffer filled by <see cref="Wait"/>.</summary>
    public static uint EventsAt(byte* events, int index) => *(uint*)(events + (index * EventSize));

    /// <summary>The data word of the <paramref name="index"/>th event in a buffer filled by <see cref="Wait"/>.</summary>
    public static ulong DataAt(byte* events, int index) => *(ulong*)(events + (index * EventSize) + DataOffset);

    [LibraryImport(Library, EntryPoint = "epoll_ctl", SetLastError = true)]
    private static partial int ControlEvent(int epoll, int operation, int fd, byte* ev);
}
