using System.Globalization;
using System.Net;
using Berth.DotNettyEcho;
using DotNetty.Buffers;
using DotNetty.Codecs;
using DotNetty.Common;
using DotNetty.Transport.Bootstrapping;
using DotNetty.Transport.Channels;
using DotNetty.Transport.Channels.Sockets;

// usage: Berth.DotNettyEcho [--port 0]; prints "listening on 127.0.0.1:PORT" once it accepts, stops on SIGTERM or SIGINT.
// Frames are Berth's default: u32 little-endian body length, then at most 1 MiB of body.
const int MaxBodyLength = 1 << 20;
var port = 0;
for (var i = 0; i + 1 < args.Length; i += 2)
{
    if (args[i] != "--port" || !int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out port) || port > 65535)
    {
        Console.Error.WriteLine("usage: Berth.DotNettyEcho [--port 0]");
        return 2;
    }
}

// A production server does not sample its buffers for leaks; the default level would tax every allocation it samples.
ResourceLeakDetector.Level = ResourceLeakDetector.DetectionLevel.Disabled;
var handler = new FramedEchoHandler();
var acceptors = new MultithreadEventLoopGroup(1);
var workers = new MultithreadEventLoopGroup();
var bootstrap = new ServerBootstrap()
    .Group(acceptors, workers)
    .Channel<TcpServerSocketChannel>()
    .Option(ChannelOption.SoBacklog, 1024)
    .ChildOption(ChannelOption.TcpNodelay, true)
    .ChildOption(ChannelOption.Allocator, PooledByteBufferAllocator.Default)
    .ChildHandler(new ActionChannelInitializer<ISocketChannel>(channel => channel.Pipeline
        // The frame keeps its length field (nothing stripped), so it goes back exactly as it came.
        .AddLast(new LengthFieldBasedFrameDecoder(DotNetty.Buffers.ByteOrder.LittleEndian, MaxBodyLength + 4, 0, 4, 0, 0, true))
        .AddLast(handler)));

var listener = await bootstrap.BindAsync(new IPEndPoint(IPAddress.Loopback, port));
Console.WriteLine($"listening on 127.0.0.1:{((IPEndPoint)listener.LocalAddress).Port}");

var stop = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
using var terminate = System.Runtime.InteropServices.PosixSignalRegistration.Create(
    System.Runtime.InteropServices.PosixSignal.SIGTERM, context => { context.Cancel = true; stop.TrySetResult(); });
using var interrupt = System.Runtime.InteropServices.PosixSignalRegistration.Create(
    System.Runtime.InteropServices.PosixSignal.SIGINT, context => { context.Cancel = true; stop.TrySetResult(); });
await stop.Task;
await listener.CloseAsync();
await Task.WhenAll(acceptors.ShutdownGracefullyAsync(TimeSpan.Zero, TimeSpan.FromSeconds(1)), workers.ShutdownGracefullyAsync(TimeSpan.Zero, TimeSpan.FromSeconds(1)));
return 0;
