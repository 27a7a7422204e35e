using System.Runtime.InteropServices;

namespace Berth.Tcp.Transport.Epoll;

/// <summary>The few Linux calls the epoll transport makes itself: epoll, recv and a gather sendmsg.</summary>
internal static unsafe partial class LinuxSockets
{
    public const uint EpollIn = 0x001;
    public const uint EpollOut = 0x004;
    public const uint EpollError = 0x008;
    public const uint EpollHangUp = 0x010;
    public const uint EpollReadHangUp = 0x2000;
    public const uint EpollEdgeTriggered = 1u << 31;
    public const int EpollAdd = 1;
    public const int EpollDelete = 2;
    public const int CloseOnExec = 0x80000;
    public const int Interrupted = 4;
    public const int WouldBlock = 11;

    /// <summary>Peeks without consuming: the zero-byte receive waits for readability this way.</summary>
    public const int Peek = 0x02;

    /// <summary>Per-call non-blocking, so the socket's own mode is left as the runtime set it.</summary>
    public const int DontWait = 0x40;

    /// <summary>A peer that closed turns a send into EPIPE instead of a process-wide SIGPIPE.</summary>
    public const int NoSignal = 0x4000;

    private const string Library = "libc";

    /// <summary>x86-64 packs <c>struct epoll_event</c> to 12 bytes; other 64-bit ABIs align the data field to 8.</summary>
    public static readonly int EventSize = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 12 : 16;

    public static int DataOffset => EventSize - sizeof(ulong);

    [LibraryImport(Library, EntryPoint = "epoll_create1", SetLastError = true)]
    public static partial int EpollCreate(int flags);

    [LibraryImport(Library, EntryPoint = "epoll_ctl", SetLastError = true)]
    public static partial int EpollControl(int epoll, int operation, int fd, byte* ev);

    [LibraryImport(Library, EntryPoint = "epoll_wait", SetLastError = true)]
    public static partial int EpollWait(int epoll, byte* events, int maxEvents, int timeoutMilliseconds);

    [LibraryImport(Library, EntryPoint = "recv", SetLastError = true)]
    public static partial nint Receive(int fd, byte* buffer, nint length, int flags);

    [LibraryImport(Library, EntryPoint = "sendmsg", SetLastError = true)]
    public static partial nint SendMessage(int fd, MessageHeader* message, int flags);

    public static int Control(int epoll, int operation, int fd, uint events, ulong data)
    {
        var ev = stackalloc byte[16];
        *(uint*)ev = events;
        *(ulong*)(ev + DataOffset) = data;
        return EpollControl(epoll, operation, fd, ev);
    }

    /// <summary><c>struct iovec</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct IoVector
    {
        public byte* Base;
        public nuint Length;
    }

    /// <summary><c>struct msghdr</c> on 64-bit Linux; only the gather list is used.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct MessageHeader
    {
        public void* Name;
        public uint NameLength;
        public IoVector* Vectors;
        public nuint VectorCount;
        public void* Control;
        public nuint ControlLength;
        public int Flags;
    }
}
