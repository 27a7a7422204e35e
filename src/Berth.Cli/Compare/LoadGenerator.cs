using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace Berth.Cli.Compare;

/// <summary>
/// Runs the C load generator (<c>bench/native/load</c>) as its own process, so the client's cost is the same for
/// every server and never lands in the server's CPU time.
/// </summary>
internal sealed class LoadGenerator(string executable)
{
    private static readonly TimeSpan Slack = TimeSpan.FromSeconds(60);

    /// <summary>
    /// One load run of <paramref name="cell"/>. <paramref name="measuring"/> is called when the measured window opens and
    /// <paramref name="measured"/> when it closes, so the caller can read the server's counters at the same edges.
    /// </summary>
    public async Task<LoadOutcome> RunAsync(
        CompareCell cell, int port, TimeSpan warmup, TimeSpan duration, Action measuring, Action measured, CancellationToken cancellationToken)
    {
        using var process = Start(
            redirectInput: false,
            "--port", Text(port), "--connections", Text(cell.Connections), "--pipeline", Text(cell.Pipeline),
            "--size", Text(cell.Size), "--warmup", Text(warmup.TotalSeconds), "--duration", Text(duration.TotalSeconds));
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(warmup + duration + Slack);
        try
        {
            LoadOutcome? outcome = null;
            while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
            {
                if (line == "measuring")
                {
                    measuring();
                }
                else if (line.StartsWith('{'))
                {
                    measured();
                    outcome = LoadOutcome.Parse(line);
                }
            }

            await process.WaitForExitAsync(timeout.Token);
            return outcome ?? throw new IOException($"the load generator ended without a result: {await process.StandardError.ReadToEndAsync(cancellationToken)}");
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw new IOException("the load generator did not finish in time", e);
        }
        finally
        {
            StopIfRunning(process);
        }
    }

    /// <summary>Opens <paramref name="connections"/> idle connections (one round trip each) and holds them until disposed.</summary>
    public async Task<IdleConnections> HoldIdleAsync(int port, int connections, CancellationToken cancellationToken)
    {
        var process = Start(redirectInput: true, "--idle", "--port", Text(port), "--connections", Text(connections));
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(Slack + Slack);
        try
        {
            var line = await process.StandardOutput.ReadLineAsync(timeout.Token)
                ?? throw new IOException($"the idle holder ended without a result: {await process.StandardError.ReadToEndAsync(cancellationToken)}");
            using var json = JsonDocument.Parse(line);
            var echoed = json.RootElement.GetProperty("echoed").GetInt32();
            var errors = json.RootElement.GetProperty("errors").GetInt64();
            // A connection that failed its round trip is usually counted by the holder already; count it once.
            return new IdleConnections(process, echoed, Math.Max(errors, connections - echoed));
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            StopIfRunning(process);
            process.Dispose();
            throw new IOException($"the idle holder did not connect {connections} connections in time", e);
        }
        catch
        {
            StopIfRunning(process);
            process.Dispose();
            throw;
        }
    }

    private Process Start(bool redirectInput, params string[] arguments)
    {
        var start = new ProcessStartInfo(executable)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = redirectInput,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        return Process.Start(start) ?? throw new IOException($"cannot start {executable}");
    }

    private static void StopIfRunning(Process process)
    {
        if (!process.HasExited)
        {
            process.Kill();
            process.WaitForExit();
        }
    }

    private static string Text(double value) => value.ToString(CultureInfo.InvariantCulture);
}
