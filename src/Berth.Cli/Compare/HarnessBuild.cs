using System.Diagnostics;

namespace Berth.Cli.Compare;

/// <summary>
/// Builds what the comparison runs besides Berth, from the source checkout into <c>artifacts/compare/</c>: the C
/// epoll echo server and the C load generator (with their build scripts, so there is one way to build them), and
/// the Kestrel framed echo.
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

    public string LoadGenerator => Path.Combine(_output, "berth-load");

    public string KestrelEcho => Path.Combine(_output, "kestrel-echo", "Berth.KestrelEcho.dll");

    public async Task BuildNativeAsync(CancellationToken cancellationToken)
    {
        await RunAsync("bash", [Path.Combine(root, "bench", "native", "echo", "build.sh"), _output], cancellationToken);
        await RunAsync("bash", [Path.Combine(root, "bench", "native", "load", "build.sh"), _output], cancellationToken);
    }

    public Task BuildKestrelEchoAsync(CancellationToken cancellationToken) =>
        RunAsync(
            "dotnet",
            ["build", Path.Combine(root, "bench", "Berth.KestrelEcho", "Berth.KestrelEcho.csproj"), "-c", "Release", "-nologo",
                "-v", "quiet", "-o", Path.GetDirectoryName(KestrelEcho)!],
            cancellationToken);

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
