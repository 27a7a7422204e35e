using System.Reflection;
using System.Runtime.InteropServices;

namespace Berth.Zmq.Native;

/// <summary>
/// Finds libzmq once under the names each OS's usual package gives it and maps every import to it: on Linux the
/// versioned runtime name first (Debian's <c>libzmq5</c> ships no unversioned link); on macOS Homebrew's <c>zeromq</c>
/// under its Apple Silicon and Intel prefixes, which <c>dlopen</c> does not search by bare name; on Windows the plain
/// name, then the versioned names libzmq's CMake build (and so vcpkg's <c>zeromq</c> port) gives the DLL.
/// </summary>
internal static class LibZmqLoader
{
    private static readonly string[] Candidates = OperatingSystem.IsWindows()
        ? ["libzmq", "libzmq-mt-4_3_5", "libzmq-mt-4_3_4", "zmq"]
        : OperatingSystem.IsMacOS()
            ? ["libzmq.5.dylib", "libzmq.dylib", "/opt/homebrew/lib/libzmq.5.dylib", "/usr/local/lib/libzmq.5.dylib", "libzmq"]
            : ["libzmq.so.5", "libzmq.so", "libzmq"];
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
