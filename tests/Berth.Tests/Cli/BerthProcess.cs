using System.Diagnostics;
using System.Globalization;
using Berth.Tests.Tcp;

namespace Berth.Tests.Cli;

/// <summary>
/// <c>berth</c> as its own process, for what cannot run in-process: signals. Standard output is read line by line so a
/// test can wait for a line ("listening on ...") before it acts; the process is killed on dispose if still running.
/// The build beside the tests runs unless <see cref="ExecutableVariable"/> names another berth executable:
/// scripts/test.sh points it at the NativeAOT binary to run the same tests against that.
/// </summary>
internal sealed class BerthProcess : IAsyncDisposable
{
    public const string ExecutableVariable = "BERTH_EXECUTABLE";

    private readonly Process _process;
    private readonly List<string> _lines = [];
    private readonly Task _reading;
    private readonly Task<string> _error;

    public BerthProcess(params string[] args)
    {
        var executable = Environment.GetEnvironmentVariable(ExecutableVariable);
        var start = new ProcessStartInfo(executable ?? "dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        if (executable is null)
        {
            start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "Berth.Cli.dll"));
        }

        foreach (var argument in args)
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start)!;
        _error = _process.StandardError.ReadToEndAsync();
        _reading = ReadAsync();
    }

    public int ExitCode => _process.ExitCode;

    public int Id => _process.Id;

    public string Output
    {
        get
        {
            lock (_lines)
            {
                return string.Join('\n', _lines);
            }
        }
    }

    public Task<string> Error => _error;

    /// <summary>Waits for the first output line that starts with <paramref name="prefix"/> and returns it.</summary>
    public async Task<string> LineStartingWithAsync(string prefix)
    {
        string? found = null;
        await Waits.Until(() =>
        {
            lock (_lines)
            {
                found = _lines.FirstOrDefault(l => l.StartsWith(prefix, StringComparison.Ordinal));
            }

            return found is not null || _process.HasExited;
        });
        return found ?? throw new InvalidOperationException($"berth exited before printing '{prefix}': {Output}\n{await _error}");
    }

    public async Task SignalAsync(string signal)
    {
        using var kill = Process.Start("kill", [$"-{signal}", _process.Id.ToString(CultureInfo.InvariantCulture)]);
        await kill.WaitForExitAsync().Within();
    }

    public async Task<int> ExitedAsync()
    {
        await _process.WaitForExitAsync().Within();
        await _reading.Within();
        return _process.ExitCode;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }

    private async Task ReadAsync()
    {
        while (await _process.StandardOutput.ReadLineAsync() is { } line)
        {
            lock (_lines)
            {
                _lines.Add(line);
            }
        }
    }
}
