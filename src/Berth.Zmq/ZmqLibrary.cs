using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>Facts about the loaded libzmq.</summary>
public static unsafe class ZmqLibrary
{
    /// <summary>The libzmq version (<c>zmq_version</c>), for example 4.3.4.</summary>
    /// <exception cref="ZmqLibraryNotFoundException">libzmq is not installed.</exception>
    public static Version Version
    {
        get
        {
            LibZmqLoader.EnsureLoaded();
            int major, minor, patch;
            LibZmq.Version(&major, &minor, &patch);
            return new Version(major, minor, patch);
        }
    }

    /// <summary>Whether libzmq was built with a capability (<c>zmq_has</c>): "ipc", "pgm", "tipc", "norm", "curve", "gssapi", "draft".</summary>
    /// <param name="capability">The capability name.</param>
    /// <returns>True when supported.</returns>
    public static bool Has(string capability)
    {
        ArgumentNullException.ThrowIfNull(capability);
        LibZmqLoader.EnsureLoaded();
        return LibZmq.Has(capability) != 0;
    }
}
