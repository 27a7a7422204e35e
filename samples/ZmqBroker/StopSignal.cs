using Berth.Zmq;

namespace ZmqBroker;

/// <summary>
/// A child process stops when its standard input closes: the orchestrator closes it to end the run, and a child
/// whose orchestrator died stops too instead of lingering.
/// </summary>
internal static class StopSignal
{
    /// <summary>Shuts <paramref name="context"/> down once standard input closes, which ends every blocking call on it.</summary>
    public static ManualResetEventSlim ShutDownOnEndOfInput(ZmqContext context)
    {
        var stopped = new ManualResetEventSlim();
        var watcher = new Thread(() =>
        {
            Console.In.ReadToEnd();
            stopped.Set();
            context.Shutdown();
        })
        {
            IsBackground = true,
            Name = "stop on end of input",
        };
        watcher.Start();
        return stopped;
    }
}
