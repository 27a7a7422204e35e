using System.Diagnostics;
using System.Globalization;

namespace Berth.Cli.Zmq;

/// <summary>
/// The C reference programs in bench/native/zmq, compiled with gcc against libzmq3-dev into bench/native/build
/// on first use, and run as child processes so their numbers are plain libzmq with no .NET in the process.
/// </summary>
internal sealed class NativeZmqPrograms
{
    private static readonly string[] Programs = ["push_pull_thr", "req_rep_lat"];
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
            if (File.Exists(binary) && File.GetLastWriteTimeUtc(binary) >= File.GetLastWriteTimeUtc(source))
            {
                continue;
            }

            var (exit, _, error) = Execute("gcc", ["-O2", "-o", binary, source, "-lzmq", "-lpthread"]);
            if (exit != 0)
            {
                throw new InvalidOperationException($"gcc could not build {program}.c (install gcc and libzmq3-dev: bash scripts/setup.sh --native): {FirstLine(error)}");
            }
        }

        return new NativeZmqPrograms(build);
    }

    /// <summary>Runs a program and returns its <c>key=value</c> output.</summary>
    public IReadOnlyDictionary<string, double> Run(string program, int size, int count)
    {
        var (exit, output, error) = Execute(Path.Combine(_buildDirectory, program), [size.ToString(CultureInfo.InvariantCulture), count.ToString(CultureInfo.InvariantCulture)]);
        if (exit != 0)
        {
            throw new InvalidOperationException($"{program} failed: {FirstLine(error)}");
        }

        var values = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var pair in output.Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var separator = pair.IndexOf('=', StringComparison.Ordinal);
            values[pair[..separator]] = double.Parse(pair[(separator + 1)..], CultureInfo.InvariantCulture);
        }

        return values;
    }

    private static string? FindSources()
    {
        foreach (var start in new[] { Environment.CurrentDirectory, AppContext.BaseDirectory })
        {
            for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
            {
                var candidate = Path.Combine(directory.FullName, "bench", "native", "zmq");
                if (File.Exists(Path.Combine(candidate, "push_pull_thr.c")))
                {
                    return candidate;
                }
            }
        }

        return null;
    }

    private static (int Exit, string Output, string Error) Execute(string file, string[] arguments)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        try
        {
            using var process = Process.Start(start) ?? throw new InvalidOperationException($"{file} did not start");
            var error = process.StandardError.ReadToEndAsync();
            var output = process.StandardOutput.ReadToEnd();
            process.WaitForExit();
            return (process.ExitCode, output, error.Result);
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new InvalidOperationException($"cannot run {Path.GetFileName(file)}: {e.Message} (bash scripts/setup.sh --native installs gcc and libzmq3-dev)");
        }
    }

    private static string FirstLine(string text) => text.Split('\n', 2)[0].Trim();
}
