namespace Berth.Zmq.Tests;

public sealed class PollerTests : IDisposable
{
    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    [Fact]
    public void Poller_reports_which_sockets_are_ready()
    {
        using var pushA = _context.Create(ZmqSocketType.Push);
        using var pullA = _context.Create(ZmqSocketType.Pull);
        using var pushB = _context.Create(ZmqSocketType.Push);
        using var pullB = _context.Create(ZmqSocketType.Pull);
        pullA.Connect(pushA.BindLoopback());
        pullB.Connect(pushB.BindLoopback());
        var poller = new ZmqPoller();
        var a = poller.Add(pullA, ZmqPollEvents.In);
        var b = poller.Add(pullB, ZmqPollEvents.In);

        Assert.Equal(0, poller.Poll(TimeSpan.Zero));

        pushB.Send("b");
        Assert.Equal(1, poller.Poll(Endpoints.Patience));
        Assert.Equal(ZmqPollEvents.None, poller.ReadyEvents(a));
        Assert.Equal(ZmqPollEvents.In, poller.ReadyEvents(b));
        Assert.Equal("b", pullB.ReceiveString());

        pushA.Send("a");
        pushB.Send("b2");
        while (poller.Poll(Endpoints.Patience) < 2)
        {
        }

        Assert.Equal(ZmqPollEvents.In, poller.ReadyEvents(a));
        Assert.Equal(ZmqPollEvents.In, poller.ReadyEvents(b));
    }

    [Fact]
    public void Poller_reports_writability()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull = _context.Create(ZmqSocketType.Pull);
        var poller = new ZmqPoller();
        var index = poller.Add(push, ZmqPollEvents.Out);

        // No peer yet: a PUSH cannot send.
        Assert.Equal(0, poller.Poll(TimeSpan.Zero));
        pull.Connect(push.BindLoopback());
        Assert.Equal(1, poller.Poll(Endpoints.Patience));
        Assert.Equal(ZmqPollEvents.Out, poller.ReadyEvents(index));
    }
}
