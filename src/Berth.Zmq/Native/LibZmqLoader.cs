using System.Reflection;
using System.Runtime.InteropServices;

namespace Berth.Zmq.Native;

/// <summary>Finds libzmq once (the versioned runtime name first, as Debian's <c>libzmq5</c> ships no unversioned link) and maps every import to it.</summary>
internal static class LibZmqLoader
{
    private static readonly string[] Candidates = ["libzmq.so.5", "libzmq.so", "libzmq.5.dylib", "libzmq.dylib", "libzmq"];
    private static readonly Lazy<nint> Handle = new(Load);
    private static int _registered;

    public static void Register()
    {
        if (Interlocked.Exchange(ref _registered, 1) == 0)
        {
            NativeLibrary.SetDllImportResolver(typeof(LibZmqLoader).Assembly, Resolve);
        }
    }

    /// <summary>Loads libzmq now, so a missing library surfaces as <see cref="ZmqLibraryNotFoundException"/> at the first public entry point.</summary>
    public static void EnsureLoaded()
    {
        Register();
        _ = Handle.Value;
    }

    private static nint Resolve(string name, Assembly assembly, DllImportSearchPath? searchPath) => name switch
    {
        "libzmq" => Handle.Value,

        // glibc's unversioned libc.so is a linker script that dlopen cannot load.
        "libc" when OperatingSystem.IsLinux() => NativeLibrary.Load("libc.so.6"),
        _ => 0,
    };

    private static nint Load()
    {
        foreach (var candidate in Candidates)
        {
            if (NativeLibrary.TryLoad(candidate, out var handle))
            {
                return handle;
            }
        }

        throw new ZmqLibraryNotFoundException(string.Join(", ", Candidates));
    }
}
