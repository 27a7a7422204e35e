using System.Diagnostics;
using System.Globalization;

namespace Berth.Cli.Balancer;

/// <summary>
/// A process this command started (haproxy, <c>berth serve</c>), its standard output and error read line by line as
/// they come, so the run waits for what a process says (an event) rather than for a time. Killed on dispose if still
/// running.
/// </summary>
internal sealed class ChildProcess : IAsyncDisposable
{
    private static readonly TimeSpan HangGuard = TimeSpan.FromSeconds(60);

    private readonly Process _process;
    private readonly List<string> _lines = [];
    private readonly List<(Func<string, bool> Match, int From, TaskCompletionSource<string> Found)> _waiters = [];
    private readonly Task _reading;
    private int _streamsEnded;

    public ChildProcess(string fileName, IEnumerable<string> arguments)
    {
        var start = new ProcessStartInfo(fileName) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start) ?? throw new IOException($"cannot start {fileName}");
        _reading = Task.WhenAll(ReadAsync(_process.StandardOutput), ReadAsync(_process.StandardError));
    }

    public int Id => _process.Id;

    /// <summary>How many lines arrived so far: a mark to wait for a line that comes after it.</summary>
    public int LineCount
    {
        get
        {
            lock (_lines)
            {
                return _lines.Count;
            }
        }
    }

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

    /// <summary>Every line matching <paramref name="match"/> so far.</summary>
    public IReadOnlyList<string> Lines(Func<string, bool> match)
    {
        lock (_lines)
        {
            return [.. _lines.Where(match)];
        }
    }

    /// <summary>The first line at or after line <paramref name="from"/> that matches; throws if the process ends first.</summary>
    public async Task<string> LineAsync(Func<string, bool> match, int from = 0)
    {
        var found = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_lines)
        {
            for (var i = from; i < _lines.Count; i++)
            {
                if (match(_lines[i]))
                {
                    return _lines[i];
                }
            }

            if (_reading.IsCompleted)
            {
                throw new IOException($"{_process.StartInfo.FileName} ended before the line awaited: {string.Join('\n', _lines)}");
            }

            _waiters.Add((match, from, found));
        }

        try
        {
            return await found.Task.WaitAsync(HangGuard).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"{_process.StartInfo.FileName} did not print the line awaited within {HangGuard.TotalSeconds:0} s: {Output}");
        }
    }

    public Task<string> LineStartingWithAsync(string prefix, int from = 0) => LineAsync(line => line.StartsWith(prefix, StringComparison.Ordinal), from);

    public void Signal(string signal)
    {
        using var kill = Process.Start("kill", [$"-{signal}", _process.Id.ToString(CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
    }

    /// <summary>Waits for the process to end and its output to be read; returns its exit code.</summary>
    public async Task<int> ExitedAsync()
    {
        await _process.WaitForExitAsync().WaitAsync(HangGuard).ConfigureAwait(false);
        await _reading.WaitAsync(HangGuard).ConfigureAwait(false);
        return _process.ExitCode;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync().ConfigureAwait(false);
        }

        await _reading.ConfigureAwait(false);
        _process.Dispose();
    }

    private async Task ReadAsync(StreamReader reader)
    {
        while (await reader.ReadLineAsync().ConfigureAwait(false) is { } line)
        {
            lock (_lines)
            {
                _lines.Add(line);
                var index = _lines.Count - 1;
                _waiters.RemoveAll(waiter =>
                {
                    if (index < waiter.From || !waiter.Match(line))
                    {
                        return false;
                    }

                    waiter.Found.TrySetResult(line);
                    return true;
                });
            }
        }

        lock (_lines)
        {
            // Both streams end when the process does: the second to end fails whoever still waits.
            if (++_streamsEnded == 2)
            {
                foreach (var waiter in _waiters)
                {
                    waiter.Found.TrySetException(new IOException($"{_process.StartInfo.FileName} ended before the line awaited: {string.Join('\n', _lines)}"));
                }

                _waiters.Clear();
            }
        }
    }
}
