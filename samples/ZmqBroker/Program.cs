using ZmqBroker;

// One executable, four roles: `run` starts a broker, workers and clients as separate processes of this same program,
// kills one worker with SIGKILL while it holds a request, and prints the ledger. The other roles are what it starts.
try
{
    return args switch
    {
        ["broker"] => BrokerRole.Run(),
        ["worker", var backend, var name, .. var rest] => WorkerRole.Run(backend, name, RunOptions.Parse(rest, RunOptions.WorkerDefaults)),
        ["client", var frontend, var name, .. var rest] => ClientRole.Run(frontend, name, RunOptions.Parse(rest)),
        ["run", .. var rest] => Orchestrator.Run(RunOptions.Parse(rest)),
        _ => Usage(null),
    };
}
catch (Exception e) when (e is ArgumentException or FormatException)
{
    return Usage(e.Message);
}

static int Usage(string? error)
{
    if (error is not null)
    {
        Console.Error.WriteLine(error);
    }

    Console.Error.WriteLine("usage: ZmqBroker run [--clients N] [--requests N] [--workers N] [--stall-at N] [--timeout-ms N] [--attempts N]");
    Console.Error.WriteLine("       ZmqBroker broker | worker BACKEND NAME [--stall-at N] | client FRONTEND NAME [--requests N] [--timeout-ms N] [--attempts N]");
    return 2;
}
