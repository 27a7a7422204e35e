using System.Text;
using Berth.Zmq;

// REQ/REP without a thread per wait: the replier and the requester each await socket readiness, so both run on
// the thread pool in one program. The replier sends each request back as the same libzmq message, without a copy.
using var context = new ZmqContext();
using var rep = context.CreateSocket(ZmqSocketType.Rep);
rep.Bind("tcp://127.0.0.1:*");
using var req = context.CreateSocket(ZmqSocketType.Req);
req.Connect(rep.LastEndpoint);

using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
const int count = 3;

var replier = Task.Run(async () =>
{
    using var request = new ZmqMessage();
    for (var i = 0; i < count; i++)
    {
        await rep.ReceiveAsync(request, timeout.Token);
        await rep.SendAsync(request, cancellationToken: timeout.Token);
    }
});

var buffer = new byte[256];
for (var i = 0; i < count; i++)
{
    await req.SendAsync(Encoding.UTF8.GetBytes($"request {i}"), cancellationToken: timeout.Token);
    var size = await req.ReceiveAsync(buffer, timeout.Token);
    Console.WriteLine($"reply: {Encoding.UTF8.GetString(buffer, 0, size)}");
}

await replier;
Console.WriteLine($"request/reply ok: {count} requests answered");
