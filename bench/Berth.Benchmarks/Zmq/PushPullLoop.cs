using Berth.Zmq;

namespace Berth.Benchmarks.Zmq;

/// <summary>
/// A PUSH socket connected over tcp loopback to a PULL socket drained by a background thread into one reused
/// <see cref="ZmqMessage"/>. <see cref="WaitFor"/> makes a benchmark batch include delivery, not just enqueueing.
/// </summary>
internal sealed class PushPullLoop : IDisposable
{
    private readonly ZmqContext _context = new();
    private readonly Thread _receiver;
    private long _received;

    public PushPullLoop()
    {
        var pull = _context.CreateSocket(ZmqSocketType.Pull);
        pull.Bind("tcp://127.0.0.1:*");
        Push = _context.CreateSocket(ZmqSocketType.Push);
        Push.Connect(pull.LastEndpoint);
        _receiver = new Thread(() => Drain(pull)) { IsBackground = true, Name = "zmq-benchmark-pull" };
        _receiver.Start();
    }

    public ZmqSocket Push { get; }

    public long Sent { get; set; }

    /// <summary>Spins until the receiver has everything sent so far.</summary>
    public void WaitFor()
    {
        var spinner = default(SpinWait);
        while (Volatile.Read(ref _received) < Sent)
        {
            spinner.SpinOnce();
        }
    }

    public void Dispose()
    {
        Push.Dispose();
        _context.Dispose();
        _receiver.Join();
    }

    private void Drain(ZmqSocket pull)
    {
        using var message = new ZmqMessage();
        try
        {
            while (true)
            {
                pull.Receive(message);
                Interlocked.Increment(ref _received);
            }
        }
        catch (ZmqException e) when (e.IsContextTerminated)
        {
            pull.Dispose();
        }
    }
}
