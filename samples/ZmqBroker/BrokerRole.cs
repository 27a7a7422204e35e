using Berth.Zmq;

namespace ZmqBroker;

/// <summary>
/// The broker: clients' REQ sockets connect to a ROUTER, workers' REP sockets to a DEALER, and libzmq's proxy forwards
/// between them. The DEALER shares requests out round-robin and the ROUTER routes each reply back by the envelope the
/// request carried, so the broker keeps no state of its own.
/// </summary>
internal static class BrokerRole
{
    public static int Run()
    {
        using var context = new ZmqContext();
        using var frontend = context.CreateSocket(ZmqSocketType.Router);
        using var backend = context.CreateSocket(ZmqSocketType.Dealer);
        frontend.Linger = TimeSpan.Zero;
        backend.Linger = TimeSpan.Zero;
        frontend.Bind("tcp://127.0.0.1:*");
        backend.Bind("tcp://127.0.0.1:*");
        Console.WriteLine($"{Protocol.Endpoints} {frontend.LastEndpoint} {backend.LastEndpoint}");

        StopSignal.ShutDownOnEndOfInput(context);
        ZmqProxy.Run(frontend, backend);
        return 0;
    }
}
