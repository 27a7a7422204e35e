namespace Berth.Zmq;

/// <summary>The native libzmq library could not be loaded; the message names the package that provides it.</summary>
public sealed class ZmqLibraryNotFoundException : Exception
{
    /// <summary>Creates the exception, listing the library names that were tried.</summary>
    /// <param name="triedNames">The file names the loader tried.</param>
    public ZmqLibraryNotFoundException(string triedNames)
        : base($"libzmq was not found (tried {triedNames}); install it with 'apt-get install libzmq5'")
    {
    }
}
