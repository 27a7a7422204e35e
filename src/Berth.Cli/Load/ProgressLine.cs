using System.Diagnostics;
using System.Globalization;

namespace Berth.Cli.Load;

/// <summary>
/// A live status line on the terminal, rewritten in place four times a second; when output is redirected it stays
/// silent so logs and captured tables hold only results.
/// </summary>
internal sealed class ProgressLine : IAsyncDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _drawing;

    public ProgressLine(string label, LoadProgress progress)
    {
        _drawing = Console.IsErrorRedirected ? Task.CompletedTask : DrawAsync(label, progress, _stop.Token);
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _drawing;
        _stop.Dispose();
    }

    private static async Task DrawAsync(string label, LoadProgress progress, CancellationToken stop)
    {
        var started = Stopwatch.GetTimestamp();
        var lastMessages = 0L;
        var lastTime = started;
        // The line is formatted into one buffer for the whole run: the bench counts the process's allocations over its
        // measurement window, and a string a tick was bytes per message in the cells with the fewest messages.
        var line = new char[label.Length + 96];
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(250));
        try
        {
            while (await timer.WaitForNextTickAsync(stop))
            {
                var now = Stopwatch.GetTimestamp();
                var messages = progress.Messages;
                var rate = (messages - lastMessages) / Stopwatch.GetElapsedTime(lastTime, now).TotalSeconds;
                (lastMessages, lastTime) = (messages, now);
                if (line.AsSpan().TryWrite(
                        CultureInfo.CurrentCulture,
                        $"\r  {label}  {Stopwatch.GetElapsedTime(started, now).TotalSeconds,5:F1} s  {rate,12:N0} msg/s  errors {progress.Errors}   ",
                        out var written))
                {
                    Console.Error.Write(line, 0, written);
                }
            }
        }
        catch (OperationCanceledException)
        {
            // The run ended; clear the line below.
        }

        Console.Error.Write("\r" + new string(' ', 100) + "\r");
    }
}
