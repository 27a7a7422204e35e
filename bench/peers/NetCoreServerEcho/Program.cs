using System.Globalization;
using System.Net;
using System.Runtime.InteropServices;
using Berth.NetCoreServerEcho;

// usage: Berth.NetCoreServerEcho [--port 0]; prints "listening on 127.0.0.1:PORT" once it accepts, stops on SIGTERM or SIGINT.
var port = 0;
for (var i = 0; i + 1 < args.Length; i += 2)
{
    if (args[i] != "--port" || !int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out port) || port > 65535)
    {
        Console.Error.WriteLine("usage: Berth.NetCoreServerEcho [--port 0]");
        return 2;
    }
}

// Its defaults (8 KiB session buffers, 1 KiB backlog) but for Nagle, off as in every server compared; its own echo
// benchmark leaves that line commented out.
using var server = new FramedEchoServer(IPAddress.Loopback, port) { OptionNoDelay = true };
if (!server.Start())
{
    Console.Error.WriteLine("Berth.NetCoreServerEcho: the server did not start");
    return 1;
}

Console.WriteLine($"listening on 127.0.0.1:{((IPEndPoint)server.Endpoint).Port}");

var stop = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context => { context.Cancel = true; stop.TrySetResult(); });
using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, context => { context.Cancel = true; stop.TrySetResult(); });
await stop.Task;
server.Stop();
return 0;
