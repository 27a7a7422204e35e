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

    [LibraryImport(Library, EntryPoint = "recv", SetLastError = true)]
    public static partial nint Receive(int fd, byte* buffer, nint length, int flags);

    [LibraryImport(Library, EntryPoint = "sendmsg", SetLastError = true)]
    public static partial nint SendMessage(int fd, MessageHeader* message, int flags);

    /// <summary>
    /// <c>poll</c>, for whether a connect under way finished; the runtime's own poll may read and so clear the socket's
    /// error on the way.
    /// </summary>
    [LibraryImport(Library, EntryPoint = "poll", SetLastError = true)]
    public static partial int Poll(PollDescriptor* descriptors, nuint count, int timeout);

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
