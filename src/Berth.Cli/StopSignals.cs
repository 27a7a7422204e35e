using System.Runtime.InteropServices;

namespace Berth.Cli;

/// <summary>
/// SIGINT (Ctrl-C) and SIGTERM as two steps: the first asks the command to stop in order (<see cref="Stopping"/>),
/// the second to stop at once (<see cref="StopNow"/>). The process is never killed by the signal itself, so a command
/// always gets to print what it has.
/// </summary>
internal sealed class StopSignals : IDisposable
{
    private readonly CancellationTokenSource _stopping = new();
    private readonly CancellationTokenSource _stopNow = new();
    private readonly PosixSignalRegistration _interrupt;
    private readonly PosixSignalRegistration _terminate;
    private readonly Action<string>? _onFirst;
    private int _received;

    /// <param name="onFirst">Called with the signal's name when the first one arrives, to say what happens next.</param>
    public StopSignals(Action<string>? onFirst = null)
    {
        _onFirst = onFirst;
        _interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Receive);
        _terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Receive);
    }

    public CancellationToken Stopping => _stopping.Token;

    public CancellationToken StopNow => _stopNow.Token;

    public void Dispose()
    {
        _interrupt.Dispose();
        _terminate.Dispose();
        _stopping.Dispose();
        _stopNow.Dispose();
    }

    private void Receive(PosixSignalContext context)
    {
        context.Cancel = true;

        // The command's stop work runs off the signal thread, which must stay free to take the second signal.
        var first = Interlocked.Increment(ref _received) == 1;
        var name = context.Signal == PosixSignal.SIGINT ? "Ctrl-C" : "SIGTERM";
        ThreadPool.QueueUserWorkItem(_ =>
        {
            if (first)
            {
                _onFirst?.Invoke(name);
                _stopping.Cancel();
            }
            else
            {
                _stopNow.Cancel();
            }
        });
    }
}
