using System.Runtime.InteropServices;

namespace Berth.Zmq.Native;

/// <summary>The eventfd calls the readiness reactor needs beside epoll (<see cref="Berth.Interop.LinuxEpoll"/>).</summary>
internal static unsafe partial class LinuxEvents
{
    public const int NonBlocking = 0x800;

    private const string Library = "libc";

    static LinuxEvents() => LibZmqLoader.Register();

    [LibraryImport(Library, EntryPoint = "eventfd", SetLastError = true)]
    public static partial int EventFd(uint initialValue, int flags);

    [LibraryImport(Library, EntryPoint = "write", SetLastError = true)]
    public static partial nint Write(int fd, void* buffer, nint count);

    [LibraryImport(Library, EntryPoint = "close", SetLastError = true)]
    public static partial int Close(int fd);
}
