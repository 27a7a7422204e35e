using System.Net.Sockets;

namespace Berth.Unix;

/// <summary>The process at the other end of a Unix domain socket, as the kernel recorded it when it connected (<c>SO_PEERCRED</c>).</summary>
/// <param name="ProcessId">The peer's process id.</param>
/// <param name="UserId">The peer's effective user id.</param>
/// <param name="GroupId">The peer's effective group id.</param>
public readonly record struct UnixPeerCredentials(int ProcessId, int UserId, int GroupId)
{
    private const int SolSocket = 1;
    private const int SoPeerCred = 17;
    private const int UcredLength = 12;

    /// <summary>Reads the credentials of <paramref name="socket"/>'s peer; false off Linux, off Unix sockets, or once closed.</summary>
    internal static bool TryRead(Socket socket, out UnixPeerCredentials credentials)
    {
        credentials = default;
        if (!OperatingSystem.IsLinux() || socket.AddressFamily != AddressFamily.Unix)
        {
            return false;
        }

        try
        {
            Span<byte> ucred = stackalloc byte[UcredLength];
            if (socket.GetRawSocketOption(SolSocket, SoPeerCred, ucred) < UcredLength)
            {
                return false;
            }

            credentials = new UnixPeerCredentials(BitConverter.ToInt32(ucred), BitConverter.ToInt32(ucred[4..]), BitConverter.ToInt32(ucred[8..]));
            return true;
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            return false;
        }
    }
}
