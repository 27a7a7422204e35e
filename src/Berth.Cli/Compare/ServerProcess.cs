using System.Diagnostics;
using System.Globalization;

namespace Berth.Cli.Compare;

/// <summary>
/// A compared server running as its own process: started with <c>--port 0</c>, ready once it printed
/// <c>listening on HOST:PORT</c>, stopped with SIGTERM (killed when it does not exit in time).
/// </summary>
internal sealed class ServerProcess : IAsyncDisposable
{
    private const string ListeningPrefix = "listening on ";
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(10);

    private readonly Process _process;
    private readonly TaskCompletionSource<int> _port = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Queue<string> _lastErrors = new();
    private readonly Task _pumps;

    private ServerProcess(EchoServerCommand command)
    {
        Name = command.Name;
        var start = new ProcessStartInfo(command.FileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in command.Arguments)
        {
            start.ArgumentList.Add(argument);
        }

        start.ArgumentList.Add("--port");
        start.ArgumentList.Add("0");
        _process = Process.Start(start) ?? throw new IOException($"cannot start {command.FileName}");
        _pumps = Task.WhenAll(ReadOutputAsync(), ReadErrorsAsync());
    }

    public string Name { get; }

    public int Pid => _process.Id;

    public int Port => _port.Task.Result;

    public double CpuSeconds => LinuxProcess.CpuSeconds(_process.Id);

    public long ResidentBytes => LinuxProcess.ResidentBytes(_process.Id);

    /// <summary>Starts the server and returns once it listens; throws with its last error lines when it does not.</summary>
    public static async Task<ServerProcess> StartAsync(EchoServerCommand command, CancellationToken cancellationToken)
    {
        var server = new ServerProcess(command);
        try
        {
            await server._port.Task.WaitAsync(StartTimeout, cancellationToken);
            return server;
        }
        catch (Exception e) when (e is TimeoutException or IOException)
        {
            await server.DisposeAsync();
            throw new IOException($"{command.Name} did not start listening: {server.LastErrors()}", e);
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            LinuxProcess.Terminate(_process.Id);
            try
            {
                await _process.WaitForExitAsync().WaitAsync(StopTimeout);
            }
            catch (TimeoutException)
            {
                _process.Kill(entireProcessTree: true);
                await _process.WaitForExitAsync();
            }
        }

        await _pumps;
        _process.Dispose();
    }

    private async Task ReadOutputAsync()
    {
        while (await _process.StandardOutput.ReadLineAsync() is { } line)
        {
            var at = line.LastIndexOf(':');
            if (!_port.Task.IsCompleted && line.StartsWith(ListeningPrefix, StringComparison.Ordinal) && at > 0
                && int.TryParse(line.AsSpan(at + 1), NumberStyles.None, CultureInfo.InvariantCulture, out var port))
            {
                _port.TrySetResult(port);
            }
        }

        _port.TrySetException(new IOException($"{Name} exited with code {ExitCode()} before listening"));
    }

    private async Task ReadErrorsAsync()
    {
        while (await _process.StandardError.ReadLineAsync() is { } line)
        {
            lock (_lastErrors)
            {
                _lastErrors.Enqueue(line);
                if (_lastErrors.Count > 5)
                {
                    _lastErrors.Dequeue();
                }
            }
        }
    }

    private string ExitCode()
    {
        _process.WaitForExit(1000);
        return _process.HasExited ? _process.ExitCode.ToString(CultureInfo.InvariantCulture) : "unknown";
    }

    private string LastErrors()
    {
        lock (_lastErrors)
        {
            return _lastErrors.Count == 0 ? "no error output" : string.Join(" | ", _lastErrors);
        }
    }
}
