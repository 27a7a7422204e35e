using System.Text;

namespace Berth.Zmq.Tests.Interop;

/// <summary>Berth.Zmq (over libzmq) against JeroMQ, an independent ZeroMQ implementation, over TCP in both directions.</summary>
public sealed class JeroMqInteropTests : IDisposable
{
    private const int Count = 5;
    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    [Fact]
    public void Berth_rep_bound_answers_a_JeroMQ_req_that_connects()
    {
        using var rep = _context.Create(ZmqSocketType.Rep);
        rep.ReceiveTimeout = TimeSpan.FromSeconds(60);
        var endpoint = rep.BindLoopback();
        using var peer = new JeroMqPeer("req", "connect", endpoint, Count);

        var frames = new List<byte[]>();
        for (var i = 0; i < Count; i++)
        {
            rep.ReceiveMultipart(frames);
            Assert.Equal([$"java-{i}", $"part-{i}"], frames.Select(f => Encoding.UTF8.GetString(f)));
            rep.SendMultipart([.. frames.Select(f => (ReadOnlyMemory<byte>)f)]);
        }

        Assert.Equal("OK", peer.Finish());
    }

    [Fact]
    public void Berth_req_connects_to_a_bound_JeroMQ_rep()
    {
        using var peer = new JeroMqPeer("rep", "bind", "tcp://127.0.0.1", Count);
        var port = peer.ReadLine().Split(' ')[1];
        using var req = _context.Create(ZmqSocketType.Req);
        req.ReceiveTimeout = TimeSpan.FromSeconds(60);
        req.Connect($"tcp://127.0.0.1:{port}");

        var frames = new List<byte[]>();
        for (var i = 0; i < Count; i++)
        {
            req.SendMultipart(Encoding.UTF8.GetBytes($"berth-{i}"), Array.Empty<byte>(), "tail"u8.ToArray());
            req.ReceiveMultipart(frames);
            Assert.Equal([$"berth-{i}", string.Empty, "tail"], frames.Select(f => Encoding.UTF8.GetString(f)));
        }

        Assert.Equal("OK", peer.Finish());
    }

    [Fact]
    public void Berth_push_bound_feeds_a_JeroMQ_pull_that_connects()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        push.Linger = TimeSpan.FromSeconds(5);
        push.SendTimeout = TimeSpan.FromSeconds(60); // the first send waits for the JVM to start and connect
        var endpoint = push.BindLoopback();
        using var peer = new JeroMqPeer("pull", "connect", endpoint, Count);

        for (var i = 0; i < Count; i++)
        {
            push.SendMultipart(Encoding.UTF8.GetBytes($"berth-{i}"), Encoding.UTF8.GetBytes($"frame-{i}"));
        }

        for (var i = 0; i < Count; i++)
        {
            Assert.Equal($"MSG berth-{i} frame-{i}", peer.ReadLine());
        }

        Assert.Equal("OK", peer.Finish());
    }

    [Fact]
    public void Berth_pull_connects_to_a_bound_JeroMQ_push()
    {
        using var peer = new JeroMqPeer("push", "bind", "tcp://127.0.0.1", Count);
        var port = peer.ReadLine().Split(' ')[1];
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.ReceiveTimeout = TimeSpan.FromSeconds(60);
        pull.Connect($"tcp://127.0.0.1:{port}");

        var frames = new List<byte[]>();
        for (var i = 0; i < Count; i++)
        {
            pull.ReceiveMultipart(frames);
            Assert.Equal([$"java-{i}", $"part-{i}"], frames.Select(f => Encoding.UTF8.GetString(f)));
        }

        Assert.Equal("OK", peer.Finish());
    }
}
