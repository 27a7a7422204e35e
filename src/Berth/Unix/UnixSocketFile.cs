using System.Net.Sockets;

namespace Berth.Unix;

/// <summary>
/// The file a Unix domain socket listens on: a stale one is replaced at start, but never a path that is not a socket
/// or a socket another process still listens on (probed by connecting to it); the mode is set right after the bind;
/// the file is removed on stop.
/// </summary>
internal static class UnixSocketFile
{
    /// <summary>Makes <paramref name="path"/> free to bind: removes a socket file nobody listens on.</summary>
    /// <exception cref="IOException">The path is not a socket, or a process listens on it.</exception>
    public static void Reclaim(string path)
    {
        if (!Path.Exists(path) && FileType.Of(path) == FileType.Unknown)
        {
            return;
        }

        if (!IsSocket(path))
        {
            throw new IOException($"'{path}' exists and is not a socket; it is left alone.");
        }

        using (var probe = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified))
        {
            try
            {
                probe.Connect(new UnixDomainSocketEndPoint(path));
                throw new IOException($"Another process listens on '{path}'.");
            }
            catch (SocketException)
            {
                // Nobody accepts on it: the file was left behind by a process that is gone.
            }
        }

        File.Delete(path);
    }

    /// <summary>Binds <paramref name="listener"/> to <paramref name="path"/> and gives the file <paramref name="mode"/>.</summary>
    public static void Bind(Socket listener, string path, UnixFileMode mode)
    {
        listener.Bind(new UnixDomainSocketEndPoint(path));
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(path, mode);
        }
    }

    /// <summary>Removes the socket file on stop, if it is still a socket.</summary>
    public static void Remove(string path)
    {
        try
        {
            if (IsSocket(path))
            {
                File.Delete(path);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Removed or replaced meanwhile: nothing of ours is left to remove.
        }
    }

    /// <summary>True only when <paramref name="path"/> is known to be a socket (Linux); anything unknown is left alone.</summary>
    private static bool IsSocket(string path) => FileType.Of(path) == FileType.Socket;
}
