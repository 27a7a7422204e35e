using System.Text;
using Berth.Zmq;

namespace ZmqBroker;

/// <summary>
/// A client in the Lazy Pirate style: a REQ socket sends one request and waits for its reply up to a timeout; when
/// none comes, the socket is closed (REQ cannot send twice in a row) and reopened, and the request is sent again, up
/// to a bounded number of attempts. A reply is accepted once per request id, whichever request it answers; a second
/// reply for the same id is dropped and reported.
/// </summary>
internal static class ClientRole
{
    public static int Run(string frontend, string name, RunOptions options)
    {
        using var context = new ZmqContext();
        var socket = Open(context, frontend);
        var answered = new HashSet<string>();
        var buffer = new byte[256];
        try
        {
            for (var number = 1; number <= options.Requests; number++)
            {
                var id = Protocol.RequestId(name, number);
                for (var attempt = 1; ; attempt++)
                {
                    socket.Send(id);
                    if (TryReceive(socket, buffer, options.Timeout) is not { } reply)
                    {
                        // REQ cannot send twice in a row, and its reply may never come: only a new socket can retry.
                        Console.WriteLine($"{Protocol.Timeout} {id} {attempt}");
                        socket.Dispose();
                        socket = Open(context, frontend);
                    }
                    else
                    {
                        var (replyId, worker) = Split(reply);
                        if (!answered.Add(replyId))
                        {
                            Console.WriteLine($"{Protocol.Duplicate} {replyId} {worker}");
                        }
                        else
                        {
                            Console.WriteLine($"{Protocol.Answered} {replyId} {worker} {attempt}");
                            if (replyId == id)
                            {
                                break;
                            }
                        }
                    }

                    if (attempt == options.Attempts)
                    {
                        Console.WriteLine($"{Protocol.Abandoned} {id}");
                        break;
                    }
                }
            }
        }
        finally
        {
            socket.Dispose();
        }

        return 0;

        static string? TryReceive(ZmqSocket socket, byte[] buffer, TimeSpan timeout)
        {
            var poller = new ZmqPoller();
            poller.Add(socket, ZmqPollEvents.In);
            if (poller.Poll(timeout) == 0)
            {
                return null;
            }

            var size = socket.Receive(buffer);
            return Encoding.UTF8.GetString(buffer, 0, size);
        }
    }

    private static ZmqSocket Open(ZmqContext context, string frontend)
    {
        var socket = context.CreateSocket(ZmqSocketType.Req);
        socket.Linger = TimeSpan.Zero;
        socket.Connect(frontend);
        return socket;
    }

    private static (string Id, string Worker) Split(string reply)
    {
        var space = reply.IndexOf(' ', StringComparison.Ordinal);
        return space < 0 ? (reply, "?") : (reply[..space], reply[(space + 1)..]);
    }
}
