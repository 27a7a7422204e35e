using System.Net;
using Berth.Connections;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp.Hostile;

/// <summary>
/// A server under attack with a witness echoing through it. <see cref="EndAsync"/> checks what every attack test
/// promises: the witness kept working and saw every byte right, and once the attackers are gone the server is back
/// to no connection and no pooled buffer out.
/// </summary>
internal sealed class AttackArena : IAsyncDisposable
{
    private readonly ITestOutputHelper _output;
    private Witness? _witness;

    private AttackArena(BerthServerOptions options, ITestOutputHelper output)
    {
        _output = output;
        Options = options;
        Server = new BerthServer(options, Handler);
        Server.Start();
    }

    public BerthServerOptions Options { get; }

    public ObservedEchoHandler Handler { get; } = new();

    public BerthServer Server { get; }

    public IPEndPoint EndPoint => Server.EndPoint;

    public Witness Witness => _witness!;

    public static async Task<AttackArena> StartAsync(BerthServerOptions options, ITestOutputHelper output)
    {
        var arena = new AttackArena(options, output);
        arena._witness = await Witness.StartAsync(arena.EndPoint);
        await arena.Witness.EchoesMoreAsync(20);
        arena.Witness.TakeLatencies();
        return arena;
    }

    /// <summary>
    /// The witness echoes 20 frames while <paramref name="attack"/> is under way: the witness starts counting once the
    /// attack has made a step and <paramref name="hostile"/> (what the server is up against, such as an attacker it
    /// has not closed yet) holds; the attack makes another step before the witness is done (unless
    /// <paramref name="advancing"/> is false: an attack whose point is to be stuck); and when it is done, the attack is
    /// still running and <paramref name="hostile"/> still holds. An attack that ended before the witness finished
    /// proves nothing, so it fails the test.
    /// </summary>
    public async Task WitnessEchoesDuringAsync(Attack attack, Func<bool> hostile, bool advancing = true)
    {
        await Waits.Until(() => (attack.Steps > 0 && hostile()) || attack.Running.IsCompleted);
        var steps = advancing ? attack.Steps : -1;
        var frames = Witness.Frames;
        await Waits.Until(() => (Witness.Frames >= frames + 20 && attack.Steps > steps) || Witness.Error is not null || attack.Running.IsCompleted);
        Assert.Null(Witness.Error);
        if (attack.Running.IsCompleted)
        {
            await attack.Running;
            Assert.Fail("the attack ended before the witness had echoed 20 frames during it");
        }

        Assert.True(hostile(), "the witness finished only after the server was done with the attack");
    }

    /// <summary>
    /// Ends an attack that should have cost <paramref name="attackers"/> connections: the witness echoes more frames
    /// after it, then leaves, and the server must be back to its baseline. Returns the attackers' disconnect reasons.
    /// </summary>
    /// <param name="attack">What the attack was, for the output.</param>
    /// <param name="attackers">
    /// The attacking connections the server must have closed; null for every connection the server opened but the
    /// witness's, where how many the kernel passed on is not the test's to know (an accept-queue overflow drops some).
    /// </param>
    public async Task<DisconnectReason[]> EndAsync(string attack, int? attackers)
    {
        await Witness.EchoesMoreAsync(20);
        var (frames, p50, p99) = Witness.TakeLatencies();
        _output.WriteLine($"{attack}: witness echoed {frames} frames during the attack, p50 {p50:F2} ms, p99 {p99:F2} ms");
        Assert.Null(Witness.Error);
        var witness = Witness.LocalEndPoint;
        await Witness.DisposeAsync();

        if (attackers is { } expected)
        {
            await Waits.Until(() => Handler.Disconnects.Count >= expected + 1);
        }

        await Waits.Until(() => Server.ConnectionCount == 0 && Options.BufferPool.Outstanding == 0);

        // Refused connections are reported without being opened, so every opened one reported means at least as many.
        await Waits.Until(() => Handler.Disconnects.Count >= Handler.Connects);
        var reasons = Handler.ReasonsExcept(witness);
        Assert.Equal(attackers ?? Handler.Disconnects.Count - 1, reasons.Length);
        Assert.Equal(DisconnectReason.ClosedByPeer, Assert.Single(Handler.Disconnects, d => witness.Equals(d.Peer)).Info.Reason);
        return reasons;
    }

    public async ValueTask DisposeAsync()
    {
        if (_witness is not null)
        {
            await _witness.DisposeAsync();
        }

        await Server.StopAsync();
        Assert.Equal(0, Options.BufferPool.Outstanding);
    }
}
