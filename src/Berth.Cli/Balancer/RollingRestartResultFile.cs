using Berth.Results;

namespace Berth.Cli.Balancer;

/// <summary>
/// A rolling restart as a berth-result/1 file (docs/RESULTS.md): the <c>ledger</c> table adds up every client's
/// frames and the longest time to reconnect; the <c>restarts</c> table says what each backend's restart showed.
/// </summary>
internal static class RollingRestartResultFile
{
    public static ResultFile Build(RollingRestartResult result, Provenance provenance)
    {
        static string Yes(bool value) => value ? "yes" : "no";
        var ledger = new ResultTable(
            "ledger",
            null,
            [
                new("clients", CellFormat.Int), new("frames sent", CellFormat.Int), new("echoed", CellFormat.Int),
                new("reported failed", CellFormat.Int), new("unexpected echoes", CellFormat.Int), new("unaccounted", CellFormat.Int),
                new("reconnections", CellFormat.Int), new("longest time to reconnect", CellFormat.Ms), new("verdict", CellFormat.Verdict),
            ],
            [[
                (double)result.Clients, (double)result.Sent, (double)result.Echoed, (double)result.Failed, (double)result.Unexpected,
                (double)result.Outstanding, (double)result.Reconnections.Count, result.LongestReconnect.TotalMilliseconds,
                result.Held ? TargetVerdict.Met : TargetVerdict.NotMet,
            ]],
            ["A frame is echoed (its echo came back to its sender, in order, byte for byte) or reported failed (refused by TrySend, or outstanding when its connection ended, which the client is told); unaccounted and unexpected must be 0. The time to reconnect runs from the client's connection ending to the first echo on its next one."]);
        var restarts = new ResultTable(
            "restarts",
            null,
            [
                new("backend", CellFormat.Text), new("marked down before it stopped accepting", CellFormat.Text),
                new("new connection during the drain went to the other", CellFormat.Text), new("exit code", CellFormat.Int),
                new("clients moved", CellFormat.Int), new("longest time to reconnect", CellFormat.Ms),
            ],
            [.. result.Restarts.Select(r => (IReadOnlyList<object?>)[
                r.Backend, Yes(r.MarkedDownBeforeStopping), Yes(r.NewConnectionWentToOther), (double)r.ExitCode, (double)r.ClientsMoved, r.LongestReconnect.TotalMilliseconds])],
            []);
        return new ResultFile(provenance, [ledger, restarts]);
    }
}
