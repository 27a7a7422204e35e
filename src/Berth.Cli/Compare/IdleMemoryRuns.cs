using System.Globalization;

namespace Berth.Cli.Compare;

/// <summary>
/// Memory per idle connection: for each server and connection count, a fresh server process warmed by a short load,
/// its resident memory read before and after the load generator opened the connections (one round trip each),
/// the growth divided by the connection count.
/// </summary>
internal sealed class IdleMemoryRuns(LoadGenerator load)
{
    private static readonly CompareCell WarmupCell = CompareCell.Pipelined(64, 10);
    private static readonly TimeSpan WarmupDuration = TimeSpan.FromSeconds(0.5);
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(0.5);

    public async Task<List<IdleSample>> RunAsync(
        IReadOnlyList<EchoServerCommand> servers, IReadOnlyList<int> connectionCounts, int repeat, CancellationToken cancellationToken)
    {
        var samples = new List<IdleSample>();
        for (var round = 0; round < repeat; round++)
        {
            foreach (var connections in connectionCounts)
            {
                foreach (var server in servers)
                {
                    var sample = await MeasureAsync(server, connections, cancellationToken);
                    samples.Add(sample);
                    Console.WriteLine(string.Create(
                        CultureInfo.InvariantCulture,
                        $"  idle {sample.Server,-13} {connections,6:N0} connections  {sample.BytesPerConnection / 1024,8:0.00} KiB per connection  errors {sample.Errors}"));
                }
            }
        }

        return samples;
    }

    private async Task<IdleSample> MeasureAsync(EchoServerCommand command, int connections, CancellationToken cancellationToken)
    {
        await using var server = await ServerProcess.StartAsync(command, cancellationToken);
        try
        {
            // The first connections pay for code and pools every later one shares; they are not per-connection memory.
            await load.RunAsync(WarmupCell, server.Port, TimeSpan.Zero, WarmupDuration, () => { }, () => { }, cancellationToken);
            await Task.Delay(Settle, cancellationToken);
            var before = server.ResidentBytes;
            await using var idle = await load.HoldIdleAsync(server.Port, connections, cancellationToken);
            await Task.Delay(Settle, cancellationToken);
            var after = server.ResidentBytes;
            return new IdleSample(server.Name, connections, (double)(after - before) / connections, idle.Errors);
        }
        catch (IOException e)
        {
            Console.WriteLine($"  idle {server.Name} {connections:N0} connections: {e.Message}");
            return new IdleSample(server.Name, connections, double.NaN, connections);
        }
    }
}
