using System.Runtime.InteropServices;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>
/// Echoes every multipart message: a REP answers each request with the same frames; a ROUTER sends each message
/// back to its sender (the routing id frame addresses the reply). Frames are forwarded as libzmq messages, never copied.
/// </summary>
internal static class ZmqEchoServer
{
    public static int Run(ZmqEchoSettings settings)
    {
        using var context = new ZmqContext();
        using var socket = context.CreateSocket(settings.Type);
        socket.Linger = TimeSpan.Zero;
        socket.MaxMessageSize = settings.MaxMessageSize;
        socket.Bind(settings.Bind);
        using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
        using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);
        Console.WriteLine($"listening on {socket.LastEndpoint}");

        var frames = new List<ZmqMessage>();
        try
        {
            while (true)
            {
                var count = 0;
                do
                {
                    if (count == frames.Count)
                    {
                        frames.Add(new ZmqMessage());
                    }

                    socket.Receive(frames[count]);
                }
                while (frames[count++].More);

                for (var i = 0; i < count; i++)
                {
                    socket.Send(frames[i], more: i < count - 1);
                }
            }
        }
        catch (ZmqException e) when (e.IsContextTerminated)
        {
            return 0;
        }
        finally
        {
            frames.ForEach(frame => frame.Dispose());
        }

        void Stop(PosixSignalContext signal)
        {
            signal.Cancel = true;
            context.Shutdown();
        }
    }
}
