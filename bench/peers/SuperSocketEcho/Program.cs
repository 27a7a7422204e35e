using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using Berth.SuperSocketEcho;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using SuperSocket.Server.Abstractions;
using SuperSocket.Server.Host;

// usage: Berth.SuperSocketEcho [--port 0]; prints "listening on 127.0.0.1:PORT" once it accepts, stops on SIGTERM or SIGINT.
var port = 0;
for (var i = 0; i + 1 < args.Length; i += 2)
{
    if (args[i] != "--port" || !int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out port) || port > 65535)
    {
        Console.Error.WriteLine("usage: Berth.SuperSocketEcho [--port 0]");
        return 2;
    }
}

// SuperSocket's listener does not tell which port it got for port 0, so a free one is taken from the kernel first.
if (port == 0)
{
    using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
    probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
    port = ((IPEndPoint)probe.LocalEndPoint!).Port;
}

// Its defaults otherwise, but for three: Nagle off and a 1 KiB backlog, as every server compared has; and socket buffers
// left to the kernel. SuperSocket's default 4 KiB ReceiveBufferSize and SendBufferSize also pin SO_RCVBUF and SO_SNDBUF at
// 4 KiB, which stalls a 64 KB frame on delayed acknowledgements (about one frame per second on loopback); with 0 its
// reads still ask the pipe for 4 KiB at least.
using var host = SuperSocketHostBuilder.Create<EchoFrame, EchoFrameFilter>()
    .UsePackageHandler((session, frame) => session.SendAsync(frame.Bytes))
    .ConfigureSuperSocket(options =>
    {
        options.Name = "Berth.SuperSocketEcho";
        options.MaxPackageLength = EchoFrameFilter.HeaderLength + EchoFrameFilter.MaxBodyLength;
        options.ReceiveBufferSize = 0;
        options.SendBufferSize = 0;
        options.Listeners = [new ListenOptions { Ip = "127.0.0.1", Port = port, NoDelay = true, BackLog = 1024 }];
    })
    .ConfigureLogging((_, logging) => logging.ClearProviders())
    .Build();
await host.StartAsync();
Console.WriteLine($"listening on 127.0.0.1:{port}");

var stop = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context => { context.Cancel = true; stop.TrySetResult(); });
using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, context => { context.Cancel = true; stop.TrySetResult(); });
await stop.Task;
await host.StopAsync();
return 0;
