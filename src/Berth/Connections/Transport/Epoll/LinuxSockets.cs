using System.Runtime.InteropServices;

namespace Berth.Connections.Transport.Epoll;

/// <summary>The socket calls the epoll transport makes itself: recv, a gather sendmsg and a poll for a connect's end (epoll is <see cref="Interop.LinuxEpoll"/>).</summary>
internal static unsafe partial class LinuxSockets
{
    public const int Interrupted = 4;
    public const int WouldBlock = 11;

    /// <summary>Peeks without consuming: the zero-byte receive waits for readability this way.</summary>
    public const int Peek = 0x02;

    /// <summary>Per-call non-blocking, so the socket's own mode is left as the runtime set it.</summary>
    public const int DontWait = 0x40;

    /// <summary>A peer that closed turns a send into EPIPE instead of a process-wide SIGPIPE.</summary>
    public const int NoSignal = 0x4000;

    /// <summary><c>POLLOUT</c>.</summary>
    public const short Writable = 0x004;

    private const string Library = "libc";

    // The kernel's numbers for recvfrom and sendmsg where they are known (x64, arm64), or -1: libc's wrappers then.
    private static readonly nint s_receiveNumber = SystemCallNumber(x64: 45, arm64: 207);
    private static readonly nint s_sendMessageNumber = SystemCallNumber(x64: 46, arm64: 211);

    /// <summary>
    /// <c>recv</c>, made as the bare system call where its number is known: libc's wrapper is a cancellation point,
    /// and switches asynchronous cancellation on and off around every call, which the loop, never cancelled, pays per
    /// batch for nothing.
    /// </summary>
    public static nint Receive(int fd, byte* buffer, nint length, int flags) =>
        s_receiveNumber >= 0
            ? SystemCall(s_receiveNumber, fd, (nint)buffer, length, flags, 0, 0)
            : LibcReceive(fd, buffer, length, flags);

    /// <summary><c>sendmsg</c>, made as the bare system call where its number is known, for the reason <see cref="Receive"/> gives.</summary>
    public static nint SendMessage(int fd, MessageHeader* message, int flags) =>
        s_sendMessageNumber >= 0
            ? SystemCall(s_sendMessageNumber, fd, (nint)message, flags, 0, 0, 0)
            : LibcSendMessage(fd, message, flags);

    /// <summary>
    /// <c>poll</c>, for whether a connect under way finished; the runtime's own poll may read and so clear the socket's
    /// error on the way.
    /// </summary>
    [LibraryImport(Library, EntryPoint = "poll", SetLastError = true)]
    public static partial int Poll(PollDescriptor* descriptors, nuint count, int timeout);

    /// <summary>
    /// libc's <c>syscall</c>, which sets <c>errno</c> as the wrappers do. It is variadic; every argument here is an
    /// integer in a register, which the x64 and arm64 Linux conventions pass as for a fixed prototype.
    /// </summary>
    [LibraryImport(Library, EntryPoint = "syscall", SetLastError = true)]
    private static partial nint SystemCall(nint number, nint a1, nint a2, nint a3, nint a4, nint a5, nint a6);

    [LibraryImport(Library, EntryPoint = "recv", SetLastError = true)]
    private static partial nint LibcReceive(int fd, byte* buffer, nint length, int flags);

    [LibraryImport(Library, EntryPoint = "sendmsg", SetLastError = true)]
    private static partial nint LibcSendMessage(int fd, MessageHeader* message, int flags);

    private static nint SystemCallNumber(nint x64, nint arm64) => RuntimeInformation.ProcessArchitecture switch
    {
        Architecture.X64 => x64,
        Architecture.Arm64 => arm64,
        _ => -1,
    };

    /// <summary><c>struct pollfd</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PollDescriptor
    {
        public int Descriptor;
        public short Events;
        public short ReturnedEvents;
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
