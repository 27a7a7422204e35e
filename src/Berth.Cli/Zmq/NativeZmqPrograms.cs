namespace Berth.Cli.Zmq;

/// <summary>
/// The C reference programs in bench/native/zmq, compiled with gcc against libzmq3-dev into bench/native/build
/// on first use, and run as child processes so their numbers are plain libzmq with no .NET in the process.
/// </summary>
internal sealed class NativeZmqPrograms
{
    private const string InstallHint = "bash scripts/setup.sh --native installs gcc and libzmq3-dev";
    private static readonly string[] Programs = ["push_pull_thr", "router_dealer_thr", "req_rep_lat"];

    /// <summary>The header the throughput programs include (their send styles); a change to it rebuilds them.</summary>
    private const string SharedHeader = "send_style.h";
    private readonly string _buildDirectory;

    private NativeZmqPrograms(string buildDirectory) => _buildDirectory = buildDirectory;

    public static NativeZmqPrograms Build()
    {
        var sources = FindSources()
            ?? throw new InvalidOperationException("bench/native/zmq not found: run 'berth zmq bench' from inside the Berth repository");
        var build = Path.GetFullPath(Path.Combine(sources, "..", "build"));
        Directory.CreateDirectory(build);
        foreach (var program in Programs)
        {
            var source = Path.Combine(sources, program + ".c");
            var binary = Path.Combine(build, program);
            var newestSource = new[] { source, Path.Combine(sources, SharedHeader) }.Max(File.GetLastWriteTimeUtc);
            if (File.Exists(binary) && File.GetLastWriteTimeUtc(binary) >= newestSource)
            {
                continue;
            }

            var (exit, _, error) = ChildProgram.Execute("gcc", ["-O2", "-o", binary, source, "-lzmq", "-lpthread"], InstallHint);
            if (exit != 0)
            {
                throw new InvalidOperationException($"gcc could not build {program}.c (install gcc and libzmq3-dev: bash scripts/setup.sh --native): {ChildProgram.FirstLine(error)}");
            }
        }

        return new NativeZmqPrograms(build);
    }

    /// <summary>
    /// Runs a program and returns its <c>key=value</c> output; a throughput program first sends the warm-up's count of
    /// uncounted messages, and its sender makes frames in the warm-up's send style (send_style.h).
    /// </summary>
    public IReadOnlyDictionary<string, double> Run(string program, int size, int count, (int WarmUp, string Style)? throughput = null) =>
        ChildProgram.RunForValues(
            Path.Combine(_buildDirectory, program),
            [.. ChildProgram.SizeAndCount(size, count), .. throughput is { } t ? [t.WarmUp.ToString(System.Globalization.CultureInfo.InvariantCulture), t.Style] : Array.Empty<string>()],
            InstallHint);

    /// <summary>The repository folder <paramref name="relative"/> (such as bench/native/zmq), found from the working directory or the program's.</summary>
    public static string? FindRepositoryFolder(string relative, string marker)
    {
        foreach (var start in new[] { Environment.CurrentDirectory, AppContext.BaseDirectory })
        {
            for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
            {
                var candidate = Path.Combine(directory.FullName, relative);
                if (File.Exists(Path.Combine(candidate, marker)))
                {
                    return candidate;
                }
            }
        }

        return null;
    }

    private static string? FindSources() => FindRepositoryFolder(Path.Combine("bench", "native", "zmq"), "push_pull_thr.c");
}
