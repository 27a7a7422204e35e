using System.Diagnostics;

namespace Berth.Cli.Compare;

/// <summary>
/// Builds what the comparison runs besides Berth, from the source checkout into <c>artifacts/compare/</c>: the C
/// epoll echo server and the C load generator (with their build scripts, so there is one way to build them), the
/// Kestrel and DotNetty framed echoes, and the NetCoreServer and SuperSocket echoes from source folders the user
/// gives (with the scripts in <c>bench/peers/</c>).
/// </summary>
internal sealed class HarnessBuild(string root)
{
    private readonly string _output = Path.Combine(root, "artifacts", "compare");

    /// <summary>The C compiler the native programs need, or null when it is not on PATH.</summary>
    public static string? FindCompiler() =>
        (Environment.GetEnvironmentVariable("PATH") ?? string.Empty)
            .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(directory => Path.Combine(directory, "gcc"))
            .FirstOrDefault(File.Exists);

    public string EchoServer => Path.Combine(_output, "berth-echo");

    public string SpinningEchoServer => Path.Combine(_output, "berth-echo-spin");

    public string LoadGenerator => Path.Combine(_output, "berth-load");

    public async Task BuildNativeAsync(CancellationToken cancellationToken)
    {
        await RunAsync("bash", [Path.Combine(root, "bench", "native", "echo", "build.sh"), _output], cancellationToken);
        await RunAsync("bash", [Path.Combine(root, "bench", "native", "load", "build.sh"), _output], cancellationToken);
    }

    /// <summary>Builds one of the repository's .NET echo programs under <c>bench/</c>; returns its assembly.</summary>
    public async Task<string> BuildBenchProjectAsync(string project, CancellationToken cancellationToken)
    {
        var output = Path.Combine(_output, project);
        await RunAsync(
            "dotnet",
            ["build", Path.Combine(root, "bench", project, project + ".csproj"), "-c", "Release", "-nologo", "-v", "quiet", "-o", output],
            cancellationToken);
        return Path.Combine(output, project + ".dll");
    }

    /// <summary>
    /// Builds a peer's echo with its script in <c>bench/peers/</c> against the peer's source folder; returns its assembly.
    /// </summary>
    public async Task<string> BuildPeerAsync(string script, string project, string source, CancellationToken cancellationToken)
    {
        var output = Path.Combine(_output, project);
        await RunAsync("bash", [Path.Combine(root, "bench", "peers", script), Path.GetFullPath(source), output], cancellationToken);
        return Path.Combine(output, project + ".dll");
    }

    private static async Task RunAsync(string fileName, string[] arguments, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new IOException($"cannot start {fileName}");
        var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var errors = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        if (process.ExitCode != 0)
        {
            var log = (await output + await errors).Trim().Split('\n').TakeLast(5);
            throw new IOException($"'{fileName} {string.Join(' ', arguments)}' failed: {string.Join(" | ", log)}");
        }
    }
}
