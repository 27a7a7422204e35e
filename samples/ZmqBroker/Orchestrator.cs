using System.Globalization;

namespace ZmqBroker;

/// <summary>
/// The `run` role: starts the broker, the workers and the clients as separate processes of this program, kills the
/// first worker with SIGKILL once it stalls holding a request, lets the clients finish, stops the rest and prints
/// the ledger. The exit code is 0 only when the ledger's verdict is.
/// </summary>
internal static class Orchestrator
{
    // Hang guards only: a run that has not ended by then is reported as such, never judged by its speed.
    private static readonly TimeSpan StartPatience = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan RunPatience = TimeSpan.FromMinutes(5);

    public static int Run(RunOptions options) => RunAsync(options).GetAwaiter().GetResult();

    private static async Task<int> RunAsync(RunOptions options)
    {
        var ledger = new Ledger(options);
        var endpoints = new TaskCompletionSource<string[]>(TaskCreationOptions.RunContinuationsAsynchronously);
        var allReady = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var ready = 0;
        void OnLine(ChildProcess child, string line)
        {
            var fields = line.Split(' ');
            if (fields is [Protocol.Endpoints, _, _])
            {
                endpoints.TrySetResult(fields);
                return;
            }

            if (fields is [Protocol.Ready])
            {
                if (Interlocked.Increment(ref ready) == options.Workers)
                {
                    allReady.SetResult();
                }

                return;
            }

            ledger.Record(child.Name, fields);
            if (fields is [Protocol.Stalled, var held])
            {
                child.Kill();
                ledger.RecordKill(child.Name, child.Id, held);
                Console.WriteLine($"killed {child.Name} with SIGKILL while it held {held}");
            }
        }

        using var broker = ChildProcess.Start("broker", OnLine, "broker");
        string frontend, backend;
        try
        {
            var reported = await endpoints.Task.WaitAsync(StartPatience);
            (frontend, backend) = (reported[1], reported[2]);
        }
        catch (TimeoutException)
        {
            Console.WriteLine("broker FAILED: the broker did not report its endpoints");
            return 1;
        }

        Console.WriteLine($"broker: clients connect to {frontend}, workers to {backend}");
        var workers = new List<ChildProcess>();
        var clients = new List<ChildProcess>();
        try
        {
            for (var i = 1; i <= options.Workers; i++)
            {
                var stallAt = i == 1 ? options.StallAt : 0;
                var name = Protocol.WorkerName(i);
                workers.Add(ChildProcess.Start(name, OnLine, "worker", backend, name, "--stall-at", stallAt.ToString(CultureInfo.InvariantCulture)));
            }

            try
            {
                await allReady.Task.WaitAsync(StartPatience);
            }
            catch (TimeoutException)
            {
                Console.WriteLine("broker FAILED: not every worker connected to the broker");
                return 1;
            }

            for (var i = 1; i <= options.Clients; i++)
            {
                var name = Protocol.ClientName(i);
                clients.Add(ChildProcess.Start(name, OnLine, ["client", frontend, name, .. options.ClientArguments()]));
            }

            Console.WriteLine($"started {options.Workers} workers and {options.Clients} clients of {options.Requests} requests each");
            foreach (var client in clients)
            {
                ledger.RecordExit(client.Name, await client.WaitForExitAsync(RunPatience));
            }

            foreach (var worker in workers.Where(w => !ledger.WasKilled(w.Name)))
            {
                ledger.RecordExit(worker.Name, await worker.StopAsync());
            }

            ledger.RecordExit(broker.Name, await broker.StopAsync());
        }
        finally
        {
            foreach (var child in clients.Concat(workers))
            {
                child.Dispose();
            }
        }

        return ledger.Print(Console.Out) ? 0 : 1;
    }
}
