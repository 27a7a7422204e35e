namespace Berth.Tests.Tcp.Hostile;

/// <summary>
/// A hostile peer at work on a task of its own: it goes on until it is stopped (and has done its minimum), and
/// counts each step it gets done (a connection made, a byte or frame sent), so a test can tell that it was still
/// under way, and still getting somewhere, while the witness echoed.
/// </summary>
internal sealed class Attack : IAsyncDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private long _steps;

    private Attack(Func<Attack, Task> run) => Running = Task.Run(() => run(this));

    public Task Running { get; }

    public long Steps => Interlocked.Read(ref _steps);

    public bool Stopping => _stop.IsCancellationRequested;

    public static Attack Start(Func<Attack, Task> run) => new(run);

    public void Step() => Interlocked.Increment(ref _steps);

    /// <summary>True while the attack must go on: until it is stopped, and for at least <paramref name="minimum"/> rounds.</summary>
    public bool GoesOn(long rounds, int minimum) => rounds < minimum || !Stopping;

    /// <summary>Stops the attack and waits for it to end, rethrowing what made it fail.</summary>
    public async Task StopAsync()
    {
        await _stop.CancelAsync();
        await Running.Within();
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await Task.WhenAny(Running, Task.Delay(Waits.Patience));
        _stop.Dispose();
    }
}
