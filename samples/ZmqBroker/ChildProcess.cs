using System.Diagnostics;

namespace ZmqBroker;

/// <summary>
/// One role of this same program running as a child process. Each line it prints goes to a handler, in order;
/// what it prints on standard error is passed through, marked with its name. Closing its standard input asks it to stop.
/// </summary>
internal sealed class ChildProcess : IDisposable
{
    private static readonly TimeSpan StopPatience = TimeSpan.FromSeconds(30);

    private readonly Process _process;
    private readonly Task _reading;

    private ChildProcess(string name, Process process, Action<ChildProcess, string> onLine)
    {
        Name = name;
        _process = process;
        _process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is { } line)
            {
                Console.Error.WriteLine($"[{name}] {line}");
            }
        };
        _process.BeginErrorReadLine();
        _reading = Task.Run(async () =>
        {
            while (await _process.StandardOutput.ReadLineAsync() is { } line)
            {
                onLine(this, line);
            }
        });
    }

    /// <summary>The name the ledger knows it by.</summary>
    public string Name { get; }

    /// <summary>The operating system's process id.</summary>
    public int Id => _process.Id;

    /// <summary>Starts <paramref name="role"/> of this program with <paramref name="arguments"/>.</summary>
    public static ChildProcess Start(string name, Action<ChildProcess, string> onLine, params string[] arguments)
    {
        // Run as `dotnet ZmqBroker.dll`, the program is the host plus the assembly; run by its own launcher, it is that alone.
        var host = Environment.ProcessPath ?? throw new InvalidOperationException("the path of this program is unknown");
        var start = new ProcessStartInfo(host)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (Path.GetFileNameWithoutExtension(host) == "dotnet")
        {
            start.ArgumentList.Add(Environment.GetCommandLineArgs()[0]);
        }

        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        return new ChildProcess(name, Process.Start(start) ?? throw new InvalidOperationException($"{name} did not start"), onLine);
    }

    /// <summary>Kills the process at once with SIGKILL: no handler runs, libzmq's sockets die with it.</summary>
    public void Kill() => _process.Kill();

    /// <summary>Waits until the process has exited by itself and every line it printed has been handled.</summary>
    /// <returns>The exit code, or null when it did not exit within the hang guard.</returns>
    public async Task<int?> WaitForExitAsync(TimeSpan patience)
    {
        using var guard = new CancellationTokenSource(patience);
        try
        {
            await _process.WaitForExitAsync(guard.Token);
            await _reading.WaitAsync(guard.Token);
            return _process.ExitCode;
        }
        catch (OperationCanceledException)
        {
            return null;
        }
    }

    /// <summary>Closes standard input, which the roles take as the order to stop, and waits for the exit.</summary>
    public Task<int?> StopAsync()
    {
        _process.StandardInput.Close();
        return WaitForExitAsync(StopPatience);
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
        }

        _process.Dispose();
    }
}
