using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using Berth.Cli.Compare;
using Berth.Results;
using Berth.Results.Reports;

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
    public void RatiosAreMediansOfTheRoundsRatiosAndEveryTargetIsMarked()
    {
        // Round 2 is a bad minute for everyone: the ratio of medians would be 800/1000, the rounds' ratios are 0.9, 0.8, 0.95.
        var report = Summarize(
            [.. Round(0, berth: 900, c: 1000, kestrel: 400, berthCpu: 1.0, cCpu: 1.0),
             .. Round(1, berth: 800, c: 1000, kestrel: 400, berthCpu: 1.2, cCpu: 1.0),
             .. Round(2, berth: 95, c: 100, kestrel: 40, berthCpu: 1.1, cCpu: 1.0)],
            [new IdleSample(EchoServers.Berth, 10_000, 3000, 0), new IdleSample(EchoServers.C, 10_000, 8000, 0)]);

        var cell = Assert.Single(report.Cells);
        Assert.Equal(0.9, cell.BerthVsC!.Value, 9);
        Assert.Equal(2.25, cell.BerthVsKestrel!.Value, 9);
        Assert.Equal(1.1, cell.CpuBerthVsC!.Value, 9);
        // The median (0.9x) reaches 0.85x C but round 1 (0.8x) does not: within noise, not met.
        Assert.Equal(TargetVerdict.WithinNoise, cell.ThroughputVsCTarget);
        Assert.Equal(TargetVerdict.Met, cell.ThroughputVsKestrelTarget);
        Assert.Equal(TargetVerdict.Met, cell.CpuVsCTarget);
        Assert.Equal([0.9, 0.8, 0.95], Check(cell, "≥ 0.85x C").Rounds);
        Assert.Equal(new Spread(800, 95, 900), cell.Servers[0].MessagesPerSecond);
        Assert.Equal(TargetVerdict.Met, Assert.Single(report.Idle).BerthTarget);
    }

    [Fact]
    public void EachRatioIsTakenWithinItsBackToBackPair()
    {
        // In every round Berth ran once right before C (900 against 1000) and once right before Kestrel, on a slower
        // minute (500 against 250): each ratio comes from its own pair, never from a run next to another server.
        var report = Summarize(
            [.. Enumerable.Range(0, 3).SelectMany(round => new[]
            {
                Sample(EchoServers.Berth, round, 900, 1.0) with { Partner = EchoServers.C },
                Sample(EchoServers.C, round, 1000, 1.0),
                Sample(EchoServers.Berth, round, 500, 1.0) with { Partner = EchoServers.Kestrel },
                Sample(EchoServers.Kestrel, round, 250, 1.0),
            })],
            []);

        var cell = Assert.Single(report.Cells);
        Assert.Equal([0.9, 0.9, 0.9], Check(cell, "≥ 0.85x C").Rounds);
        Assert.Equal(2.0, cell.BerthVsKestrel!.Value, 9);
        Assert.Equal([2.0, 2.0, 2.0], Check(cell, "≥ 2x Kestrel").Rounds);
        Assert.Contains("C is 4.00x Kestrel", Check(cell, "≥ 2x Kestrel").Ratio);
    }

    [Fact]
    public void CIsTheFasterCEchoOfTheCellAndBerthIsJudgedAgainstItsOwnPairWithIt()
    {
        // The spinning echo is faster here: it becomes C, with the Berth runs paired with it; the sleeping one keeps
        // its name and its figures.
        var runs = Enumerable.Range(0, 3).SelectMany(round => new[]
        {
            Sample(EchoServers.Berth, round, 900, 1.0) with { Partner = EchoServers.CSleeping },
            Sample(EchoServers.CSleeping, round, 1000, 1.0),
            Sample(EchoServers.Berth, round, 800, 1.0) with { Partner = EchoServers.CSpinning },
            Sample(EchoServers.CSpinning, round, 2000, 3.0),
        }).ToList();

        var samples = FasterCEcho.Relabel(runs, [Small], out var choices);
        var report = CompareSummary.Build(
            new Provenance(DateTimeOffset.UnixEpoch, "abc", false, "machine", [0.1], null, false, "berth bench --compare", null),
            "conditions", 3, [EchoServers.Berth, EchoServers.C, EchoServers.CSleeping, EchoServers.CSpinning], [Small], samples, [], []);

        Assert.Equal($"{Small.Label}: {EchoServers.CSpinning}", choices);
        var cell = Assert.Single(report.Cells);
        Assert.Equal([0.4, 0.4, 0.4], Check(cell, "≥ 0.85x C").Rounds);
        Assert.Equal(1.0 / 3, cell.CpuBerthVsC!.Value, 9);
        Assert.Equal([EchoServers.Berth, EchoServers.C, EchoServers.CSleeping], cell.Servers.Select(r => r.Server));
        Assert.Equal(1000, cell.Servers.Single(r => r.Server == EchoServers.CSleeping).MessagesPerSecond.Median);
    }

    [Fact]
    public void ATargetNeedsThreeRoundsAndAMissingServerIsNotMeasuredRatherThanMet()
    {
        var report = Summarize(
            [.. Round(0, berth: 500, c: 1000, berthCpu: 2.0, cCpu: 1.0), .. Round(1, berth: 500, c: 1000, berthCpu: 2.0, cCpu: 1.0)],
            [new IdleSample(EchoServers.Berth, 10_000, 100, 3)]);

        var cell = Assert.Single(report.Cells);
        Assert.Equal(TargetVerdict.TooFewRounds, cell.ThroughputVsCTarget);
        Assert.Equal(TargetVerdict.TooFewRounds, cell.CpuVsCTarget);
        Assert.Null(cell.BerthVsKestrel);
        Assert.Equal(TargetVerdict.NotMeasured, cell.ThroughputVsKestrelTarget);
        Assert.Equal(TargetVerdict.NotMeasured, Assert.Single(report.Idle).BerthTarget);

        var three = Assert.Single(Summarize([.. Enumerable.Range(0, 3).SelectMany(r => Round(r, berth: 500, c: 1000, berthCpu: 2.0, cCpu: 1.0))], []).Cells);
        Assert.Equal(TargetVerdict.NotMet, three.ThroughputVsCTarget);
        Assert.Equal(TargetVerdict.NotMet, three.CpuVsCTarget);
    }

    [Fact]
    public void AMedianThatReachesTheTargetOverARoundThatDoesNotIsWithinNoiseNotMet()
    {
        // Rounds at 0.90x, 0.88x and 0.80x C: the median (0.88x) reaches 0.85x, the last round does not.
        var straddling = Assert.Single(Summarize(
            [.. Round(0, berth: 900, c: 1000), .. Round(1, berth: 880, c: 1000), .. Round(2, berth: 800, c: 1000)], []).Cells);
        Assert.Equal(TargetVerdict.WithinNoise, straddling.ThroughputVsCTarget);

        // Every round at or above 0.86x: met.
        var clear = Assert.Single(Summarize(
            [.. Round(0, berth: 900, c: 1000), .. Round(1, berth: 880, c: 1000), .. Round(2, berth: 860, c: 1000)], []).Cells);
        Assert.Equal(TargetVerdict.Met, clear.ThroughputVsCTarget);

        // A median under the target is not met, whatever one round reached.
        var under = Assert.Single(Summarize(
            [.. Round(0, berth: 900, c: 1000), .. Round(1, berth: 800, c: 1000), .. Round(2, berth: 800, c: 1000)], []).Cells);
        Assert.Equal(TargetVerdict.NotMet, under.ThroughputVsCTarget);
    }

    [Fact]
    public void TheKestrelTargetHoldsOnlyWhereCIsTwoAndAHalfTimesKestrel()
    {
        // C is 2.0x Kestrel: Berth's 1.6x Kestrel is reported without a mark.
        var close = Assert.Single(Summarize([.. Rounds(berth: 800, c: 1000, kestrel: 500)], []).Cells);
        Assert.Equal(CompareTargets.NoTarget, close.ThroughputVsKestrelTarget);
        Assert.Equal(1.6, Check(close, "≥ 2x Kestrel").Median!.Value, 9);
        Assert.Contains("reported", Check(close, "≥ 2x Kestrel").Ratio);

        // C is 3x Kestrel: Berth needs 2x, and 1.8x is not met.
        var far = Assert.Single(Summarize([.. Rounds(berth: 900, c: 1500, kestrel: 500)], []).Cells);
        Assert.Equal(TargetVerdict.NotMet, far.ThroughputVsKestrelTarget);
        Assert.Equal(TargetVerdict.Met, Assert.Single(Summarize([.. Rounds(berth: 1000, c: 1500, kestrel: 500)], []).Cells).ThroughputVsKestrelTarget);
    }

    [Fact]
    public void APeerTargetAboveTheCEchoIsClampedToMatchingC()
    {
        // 1.5x DotNetty (1200) is below C (1500): Berth must reach 1.5x DotNetty itself.
        var below = Assert.Single(Summarize([.. Rounds(berth: 1100, c: 1500, dotNetty: 800)], []).Cells);
        var unclamped = Check(below, "≥ 1.5x DotNetty");
        Assert.Equal("Berth/DotNetty", unclamped.Ratio);
        Assert.Equal(TargetVerdict.NotMet, unclamped.Mark);

        // 1.5x DotNetty (1800) is above C (1500): 0.95x C (1425) counts as matching, so 1450 is met at 1.45x DotNetty.
        var above = Assert.Single(Summarize([.. Rounds(berth: 1450, c: 1500, dotNetty: 1200)], []).Cells);
        var clamped = Check(above, "≥ 1.5x DotNetty");
        Assert.StartsWith("Berth/C ≥ 0.95", clamped.Ratio);
        Assert.Equal(TargetVerdict.Met, clamped.Mark);
        Assert.Equal(1450.0 / 1500, clamped.Median!.Value, 9);
        Assert.Equal(TargetVerdict.NotMet, Check(Assert.Single(Summarize([.. Rounds(berth: 1400, c: 1500, dotNetty: 1200)], []).Cells), "≥ 1.5x DotNetty").Mark);
    }

    [Fact]
    public void APeerWithoutItsSourceIsReportedAsNotRunInEveryTableAndOnThePage()
    {
        ServerNotRun[] notRun = [new(EchoServers.NetCoreServer, "source not given (--netcoreserver DIR)"), new(EchoServers.SuperSocket, "source not given (--supersocket DIR)")];
        var report = Summarize([.. Rounds(berth: 1000, c: 1100, kestrel: 300, dotNetty: 500)], [], notRun);

        var cell = Assert.Single(report.Cells);
        var netCoreServer = Check(cell, "≥ 1.5x NetCoreServer");
        Assert.Equal(CompareTargets.NotRun, netCoreServer.Mark);
        Assert.Equal("NetCoreServer not run: source not given (--netcoreserver DIR)", netCoreServer.Ratio);
        Assert.Equal(CompareTargets.NotRun, Check(cell, "SuperSocket, no target").Mark);
        Assert.Equal(TargetVerdict.Met, Check(cell, "≥ 1.5x DotNetty").Mark);

        var text = new StringWriter();
        CompareTextWriter.Write(text, report, CompareTables.Build(report));
        Assert.Contains("NetCoreServer: not run: source not given (--netcoreserver DIR)", text.ToString());
        var directory = Directory.CreateTempSubdirectory();
        try
        {
            var html = Path.Combine(directory.FullName, "compare.html");
            CompareHtmlWriter.Write(html, report, CompareTables.Build(report));
            Assert.Contains("<dt>SuperSocket</dt><dd>not run: source not given (--supersocket DIR)</dd>", File.ReadAllText(html));
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    [Fact]
    public void IdleMemoryHasItsTargetAtTenThousandConnectionsOnly()
    {
        var report = Summarize(
            [Sample(EchoServers.Berth, 0, 900, 1.0)],
            [new IdleSample(EchoServers.Berth, 1_000, 5000, 0), new IdleSample(EchoServers.Berth, 10_000, 5000, 0)]);

        Assert.Equal(CompareTargets.NoTarget, report.Idle.Single(i => i.Connections == 1_000).BerthTarget);
        Assert.Equal(TargetVerdict.NotMet, report.Idle.Single(i => i.Connections == 10_000).BerthTarget);
    }

    [Fact]
    public void TheJsonReportNamesEveryFieldAndTheHtmlPageIsSelfContained()
    {
        var report = Summarize(
            [.. Rounds(berth: 900, c: 1000, kestrel: 300)],
            [new IdleSample(EchoServers.Berth, 10_000, 70_000, 0), new IdleSample(EchoServers.C, 10_000, 5_000, 0)]);
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
            Assert.Equal(
                ["workload", EchoServers.Berth, EchoServers.C, EchoServers.Kestrel, EchoServers.DotNetty, "Berth/C", "≥ 0.85x C", "Berth/Kestrel", "≥ 2x Kestrel where C ≥ 2.5x"],
                throughput.Columns.Select(c => c.Name));
            var row = Assert.Single(throughput.Rows);
            Assert.Equal("64 B × 100", row[0]);
            Assert.Equal(new ResultRange(900, 900, 900, CellFormat.Count), row[1]);
            Assert.Null(row[4]);
            Assert.Equal(0.9, (double)row[5]!, 9);
            Assert.Equal("met", row[8]);
            var targets = file.Table("targets")!;
            var vsC = targets.Rows.Single(r => (string?)r[1] == "≥ 0.85x C");
            Assert.Equal("0.90, 0.90, 0.90", vsC[3]);
            Assert.Equal("met", vsC[5]);
            Assert.Equal("not met", file.Table("idle")!.Rows[0][^1]);
            Assert.NotNull(file.Table("cpu"));
            Assert.NotNull(file.Table("latency"));

            var page = File.ReadAllText(html);
            Assert.Contains("<td class=\"not-met\">not met</td>", page);
            Assert.Contains("<svg", page);
            Assert.Contains("<dt>date</dt>", page);
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

    private static CompareReport Summarize(CellSample[] samples, IdleSample[] idle, ServerNotRun[]? notRun = null) =>
        CompareSummary.Build(
            new Provenance(DateTimeOffset.UnixEpoch, "abc", false, "machine", [0.1], null, false, "berth bench --compare", null),
            "conditions",
            3,
            [EchoServers.Berth, EchoServers.C, EchoServers.Kestrel, EchoServers.DotNetty], [Small], samples, idle, notRun ?? []);

    private static TargetCheck Check(CellComparison cell, string target) => cell.Targets.Single(t => t.Target.StartsWith(target, StringComparison.Ordinal));

    /// <summary>Three rounds with the same figures.</summary>
    private static IEnumerable<CellSample> Rounds(double berth, double c, double kestrel = 0, double dotNetty = 0) =>
        Enumerable.Range(0, 3).SelectMany(round => Round(round, berth, c, kestrel, dotNetty));

    /// <summary>One round: a sample per server given (a zero rate leaves that server out).</summary>
    private static IEnumerable<CellSample> Round(int round, double berth, double c, double kestrel = 0, double dotNetty = 0, double berthCpu = 1, double cCpu = 1)
    {
        yield return Sample(EchoServers.Berth, round, berth, berthCpu);
        yield return Sample(EchoServers.C, round, c, cCpu);
        if (kestrel > 0)
        {
            yield return Sample(EchoServers.Kestrel, round, kestrel, 3.0);
        }

        if (dotNetty > 0)
        {
            yield return Sample(EchoServers.DotNetty, round, dotNetty, 2.0);
        }
    }

    private static CellSample Sample(string server, int round, double messagesPerSecond, double cpuPerMillion) =>
        new(server, null, Small, round, new LoadOutcome((long)messagesPerSecond, 1, messagesPerSecond, messagesPerSecond * 64 / 1e6, 10, 20, 30, 0), cpuPerMillion);

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
