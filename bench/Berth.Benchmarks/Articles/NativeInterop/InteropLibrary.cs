using System.Diagnostics;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Runtime.Loader;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// Locates the small C library the interop benchmarks call, building it with gcc when absent, so a
/// fresh clone needs no manual step. The library is resolved through an event rather than
/// <see cref="NativeLibrary.SetDllImportResolver"/> because an assembly gets only one resolver and
/// other benchmarks in this assembly may need their own.
/// </summary>
internal static class InteropLibrary
{
    public const string Name = "berthinterop";

    private static readonly Lazy<string> BuiltPath = new(Build);

    public static string EnsureLoaded() => BuiltPath.Value;

    private static string Build()
    {
        var root = RepositoryRoot();
        var library = Path.Combine(root, "bench", "native", "build", "libberthinterop.so");
        if (!File.Exists(library))
        {
            RunBuildScript(Path.Combine(root, "bench", "native", "interop", "build.sh"));
        }

        var handle = NativeLibrary.Load(library);
        AssemblyLoadContext.Default.ResolvingUnmanagedDll += (assembly, name) =>
            assembly == typeof(InteropLibrary).Assembly && name == Name ? handle : IntPtr.Zero;
        return library;
    }

    private static void RunBuildScript(string script)
    {
        using var process = Process.Start(new ProcessStartInfo("bash", [script])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        }) ?? throw new InvalidOperationException("could not start bash to build the interop library");
        var errors = process.StandardError.ReadToEnd();
        process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"building the interop library failed: {errors}");
        }
    }

    // BenchmarkDotNet runs the benchmarks from a generated folder under bin/, so the repository is
    // found by walking up to the solution file.
    private static string RepositoryRoot()
    {
        var start = Path.GetDirectoryName(Assembly.GetExecutingAssembly().Location) ?? AppContext.BaseDirectory;
        for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Berth.slnx")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException($"Berth.slnx not found above {start}");
    }
}
