using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using Berth.Cli.Compare;
using Berth.Cli.Reports;
using Berth.Results;

namespace Berth.Tests.Cli;

/// <summary>The side-by-side comparison's arithmetic, its reports, and the C load generator against real loopback peers.</summary>
public sealed class CompareTests
{
    private static readonly CompareCell Small = CompareCell.Pipelined(64, 100);

    [Fact]
    public void PipelineKeepsAtMost256KiBInFlightPerConnection()
    {
        Assert.Equal(16, CompareCell.Pipelined(1024, 1).Pipeline);
        Assert.Equal(3, CompareCell.Pipelined(65536, 1).Pipeline);
        Assert.Equal("64 KB × 100", CompareCell.Pipelined(65536, 100).Label);
    }

    [Fact]
    public void RatiosAreOfMediansAndTargetsAreJudgedOnTheWholeRange()
    {
        var report = Summarize(
            [Sample(EchoServers.Berth, 900, 1.0), Sample(EchoServers.Berth, 800, 1.2), Sample(EchoServers.Berth, 100, 1.1),
             Sample(EchoServers.C, 1000, 1.0), Sample(EchoServers.Kestrel, 40, 3.0)],
            [new IdleSample(EchoServers.Berth, 10_000, 3000, 0), new IdleSample(EchoServers.C, 10_000, 8000, 0)]);

        var cell = Assert.Single(report.Cells);
        Assert.Equal(0.8, cell.BerthVsC!.Value, 9);
        Assert.Equal(20.0, cell.BerthVsKestrel!.Value, 9);
        Assert.Equal(1.1, cell.CpuBerthVsC!.Value, 9);
        // The median ratio is 0.8x C, but the slowest run was 0.1x: the range straddles the target.
        Assert.Equal(TargetVerdict.WithinNoise, cell.ThroughputVsCTarget);
        // Even the slowest run (100) is more than 2x Kestrel's only run (40).
        Assert.Equal(TargetVerdict.Met, cell.ThroughputVsKestrelTarget);
        // The costliest run (1.2) is within 1.5x C's only run (1.0).
        Assert.Equal(TargetVerdict.Met, cell.CpuVsCTarget);
        Assert.Equal(new Spread(800, 100, 900), cell.Servers[0].MessagesPerSecond);
        Assert.Equal(TargetVerdict.Met, Assert.Single(report.Idle).BerthTarget);
    }

    [Fact]
    public void AMissingServerOrAFailedIdleRunIsNotMeasuredRatherThanMet()
    {
        var report = Summarize(
            [Sample(EchoServers.Berth, 500, 2.0), Sample(EchoServers.C, 1000, 1.0)],
            [new IdleSample(EchoServers.Berth, 10_000, 100, 3)]);

        var cell = Assert.Single(report.Cells);
        Assert.Equal(TargetVerdict.NotMet, cell.ThroughputVsCTarget);
        Assert.Equal(TargetVerdict.NotMet, cell.CpuVsCTarget);
        Assert.Null(cell.BerthVsKestrel);
        Assert.Equal(TargetVerdict.NotMeasured, cell.ThroughputVsKestrelTarget);
        Assert.Equal(TargetVerdict.NotMeasured, Assert.Single(report.Idle).BerthTarget);
    }

    [Fact]
    public void IdleMemoryHasItsTargetAtTenThousandConnectionsOnly()
    {
        var report = Summarize(
            [Sample(EchoServers.Berth, 900, 1.0)],
            [new IdleSample(EchoServers.Berth, 1_000, 5000, 0), new IdleSample(EchoServers.Berth, 10_000, 5000, 0)]);

        Assert.Equal(CompareTargets.NoTarget, report.Idle.Single(i => i.Connections == 1_000).BerthTarget);
        Assert.Equal(TargetVerdict.NotMet, report.Idle.Single(i => i.Connections == 10_000).BerthTarget);
    }

    [Fact]
    public void TheJsonReportNamesEveryFieldAndTheHtmlPageIsSelfContained()
    {
        var report = Summarize(
            [Sample(EchoServers.Berth, 900, 1.0), Sample(EchoServers.C, 1000, 1.0), Sample(EchoServers.Kestrel, 300, 2.0)],
            [new IdleSample(EchoServers.Berth, 10_000, 70_000, 0)]);
        var directory = Directory.CreateTempSubdirectory();
        try
        {
            var json = Path.Combine(directory.FullName, "compare.json");
            var html = Path.Combine(directory.FullName, "compare.html");
            CompareJsonWriter.Write(json, report);
            CompareHtmlWriter.Write(html, report, CompareTables.Build(report));

            var file = ResultFileReader.Read(json);
            Assert.Equal("berth bench --compare", file.Provenance.Command);
            var throughput = file.Table("throughput")!;
            Assert.Equal(["workload", EchoServers.Berth, EchoServers.C, EchoServers.Kestrel, "Berth/C", "≥ 0.8x C", "Berth/Kestrel", "≥ 2x Kestrel"], throughput.Columns.Select(c => c.Name));
            var row = Assert.Single(throughput.Rows);
            Assert.Equal("64 B × 100", row[0]);
            Assert.Equal(new ResultRange(900, 900, 900, CellFormat.Count), row[1]);
            Assert.Equal(0.9, (double)row[4]!, 9);
            Assert.Equal("met", row[7]);
            Assert.Equal("not met", file.Table("idle")!.Rows[0][^1]);
            Assert.NotNull(file.Table("cpu"));
            Assert.NotNull(file.Table("latency"));

            var page = File.ReadAllText(html);
            Assert.Contains("<td class=\"not-met\">not met</td>", page);
            Assert.DoesNotContain("http", page);
            Assert.DoesNotContain("<script", page);
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    [Fact]
    public void TheRepositoryRootIsFoundFromTheTestDirectory() =>
        Assert.True(File.Exists(Path.Combine(SourceCheckout.FindRoot(), "Berth.slnx")));

    [Fact]
    public async Task TheLoadGeneratorVerifiesEveryEchoAgainstARealPeer()
    {
        var build = new HarnessBuild(SourceCheckout.FindRoot());
        await build.BuildNativeAsync(CancellationToken.None);
        var load = new LoadGenerator(build.LoadGenerator);

        // Long enough for a first echo even when the machine is busy: the window only bounds the run, nothing is timed.
        var window = TimeSpan.FromSeconds(2);
        await using var honest = new LoopbackEcho(corruptReadNumber: 0);
        var clean = await load.RunAsync(Small with { Connections = 2 }, honest.Port, TimeSpan.Zero, window, () => { }, () => { }, CancellationToken.None);
        Assert.True(clean.Messages > 0);
        Assert.Equal(0, clean.Errors);

        await using var corrupting = new LoopbackEcho(corruptReadNumber: 5);
        var corrupted = await load.RunAsync(Small with { Connections = 1 }, corrupting.Port, TimeSpan.Zero, window, () => { }, () => { }, CancellationToken.None);
        Assert.True(corrupted.Errors >= 1);
    }

    [Fact]
    public async Task TheIdleHolderKeepsEveryConnectionOpenUntilReleased()
    {
        var build = new HarnessBuild(SourceCheckout.FindRoot());
        await build.BuildNativeAsync(CancellationToken.None);
        var load = new LoadGenerator(build.LoadGenerator);
        await using var echo = new LoopbackEcho(corruptReadNumber: 0);

        await using (var idle = await load.HoldIdleAsync(echo.Port, 50, CancellationToken.None))
        {
            Assert.Equal(50, idle.Echoed);
            Assert.Equal(0, idle.Errors);
            Assert.Equal(50, echo.OpenConnections);
        }

        await echo.WaitUntilAllClosedAsync();
    }

    private static CompareReport Summarize(CellSample[] samples, IdleSample[] idle) =>
        CompareSummary.Build(
            new Provenance(DateTimeOffset.UnixEpoch, "abc", false, "machine", null, null, false, "berth bench --compare", null),
            "conditions",
            3, [EchoServers.Berth, EchoServers.C, EchoServers.Kestrel], [Small], samples, idle);

    private static CellSample Sample(string server, double messagesPerSecond, double cpuPerMillion) =>
        new(server, Small, new LoadOutcome((long)messagesPerSecond, 1, messagesPerSecond, messagesPerSecond * 64 / 1e6, 10, 20, 30, 0), cpuPerMillion);

    /// <summary>
    /// A byte-stream echo on a real loopback socket; with <c>corruptReadNumber</c> above zero it flips one byte of that
    /// read on each connection, as a faulty server would.
    /// </summary>
    private sealed class LoopbackEcho : IAsyncDisposable
    {
        private readonly Socket _listener = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        private readonly CancellationTokenSource _stop = new();
        private readonly List<Task> _connections = [];
        private readonly Task _accepting;
        private readonly int _corruptReadNumber;
        private int _open;

        public LoopbackEcho(int corruptReadNumber)
        {
            _corruptReadNumber = corruptReadNumber;
            _listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            _listener.Listen(512);
            _accepting = AcceptAsync();
        }

        public int Port => ((IPEndPoint)_listener.LocalEndPoint!).Port;

        public int OpenConnections => Volatile.Read(ref _open);

        public async Task WaitUntilAllClosedAsync()
        {
            for (var i = 0; i < 500 && OpenConnections > 0; i++)
            {
                await Task.Delay(10);
            }

            Assert.Equal(0, OpenConnections);
        }

        public async ValueTask DisposeAsync()
        {
            await _stop.CancelAsync();
            _listener.Dispose();
            await _accepting;
            Task[] connections;
            lock (_connections)
            {
                connections = [.. _connections];
            }

            await Task.WhenAll(connections);
            _stop.Dispose();
        }

        private async Task AcceptAsync()
        {
            try
            {
                while (true)
                {
                    var socket = await _listener.AcceptAsync(_stop.Token);
                    Interlocked.Increment(ref _open);
                    lock (_connections)
                    {
                        _connections.Add(EchoAsync(socket));
                    }
                }
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
            {
            }
        }

        private async Task EchoAsync(Socket socket)
        {
            var buffer = new byte[65536];
            var reads = 0;
            try
            {
                while (true)
                {
                    var read = await socket.ReceiveAsync(buffer, _stop.Token);
                    if (read == 0)
                    {
                        break;
                    }

                    if (++reads == _corruptReadNumber)
                    {
                        buffer[read - 1] ^= 0xFF;
                    }

                    await socket.SendAsync(buffer.AsMemory(0, read), _stop.Token);
                }
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException)
            {
            }
            finally
            {
                socket.Dispose();
                Interlocked.Decrement(ref _open);
            }
        }
    }
}
