using System.Diagnostics;
using System.Threading.Channels;

namespace Berth.Tests.Tcp.Network;

/// <summary>A .NET program from the test's output run inside a network namespace (<c>ip netns exec</c>), its output read line by line.</summary>
internal sealed class NamespacedProcess : IDisposable
{
    private readonly Process _process;
    private readonly Channel<string> _lines = Channel.CreateUnbounded<string>();

    public NamespacedProcess(string networkNamespace, string assembly, params string[] arguments)
    {
        var start = new ProcessStartInfo("ip") { RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var argument in new[] { "netns", "exec", networkNamespace, "dotnet", Path.Combine(AppContext.BaseDirectory, assembly) }.Concat(arguments))
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start)!;
        _ = Task.Run(async () =>
        {
            while (await _process.StandardOutput.ReadLineAsync() is { } line)
            {
                Lines.Add(line);
                _lines.Writer.TryWrite(line);
            }

            _lines.Writer.TryComplete();
        });
    }

    public List<string> Lines { get; } = [];

    /// <summary>Reads lines until one starts with <paramref name="prefix"/>.</summary>
    public async Task<string> LineStartingWithAsync(string prefix)
    {
        while (await _lines.Reader.ReadAsync().AsTask().Within() is { } line)
        {
            if (line.StartsWith(prefix, StringComparison.Ordinal))
            {
                return line;
            }
        }

        throw new InvalidOperationException("unreachable");
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit(10_000);
        }

        _process.Dispose();
    }
}
