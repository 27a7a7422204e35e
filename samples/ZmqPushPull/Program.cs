using Berth.Zmq;

// PUSH/PULL: a pipeline. The PULL side binds an ephemeral loopback port, the PUSH side connects and sends a batch;
// with more than one PULL socket connected, PUSH would share the messages out round-robin.
using var context = new ZmqContext();
using var pull = context.CreateSocket(ZmqSocketType.Pull);
pull.Bind("tcp://127.0.0.1:*");
using var push = context.CreateSocket(ZmqSocketType.Push);
push.Connect(pull.LastEndpoint);

const int count = 10;
for (var i = 0; i < count; i++)
{
    push.Send($"task {i}");
}

// One reusable message: receiving into it allocates nothing.
using var message = new ZmqMessage();
var received = 0;
for (var i = 0; i < count; i++)
{
    pull.Receive(message);
    received++;
    if (i == 0 || i == count - 1)
    {
        Console.WriteLine($"pulled \"{message}\" ({message.Size} bytes)");
    }
}

Console.WriteLine($"push/pull ok: {received} of {count} messages pulled");
