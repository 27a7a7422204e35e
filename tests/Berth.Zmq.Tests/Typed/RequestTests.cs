using Berth.Messages.Requests;
using Berth.Messages;

namespace Berth.Zmq.Tests.Typed;

/// <summary>
/// Request/response over DEALER/ROUTER with real libzmq on tcp loopback. Where the test must choose the order or the
/// moment of a reply, the ROUTER side is driven by hand with the envelope codec.
/// </summary>
public sealed class RequestTests : IDisposable
{
    private readonly ZmqContext _context = new();
    private readonly CancellationTokenSource _stop = new();

    public void Dispose()
    {
        _stop.Cancel();
        _context.Dispose();
    }

    [Fact]
    public async Task A_request_is_answered_by_the_handler_for_its_id_and_an_error_reply_fails_it_with_the_code()
    {
        using var router = _context.Create(ZmqSocketType.Router);
        var responder = new ZmqResponder(router)
            .OnRequest(static (in Quote quote) => quote.Symbol >= 0
                ? new Price { Symbol = quote.Symbol, Cents = quote.Symbol * 100L }
                : throw new RequestRejectedException(42, "no such symbol"));
        var endpoint = router.BindLoopback();
        var serving = responder.RunAsync(_stop.Token);
        using var dealer = _context.Create(ZmqSocketType.Dealer);
        dealer.Connect(endpoint);
        using var requester = new ZmqRequester(dealer);

        var price = await requester.RequestAsync<Quote, Price>(new Quote { Symbol = 7 }).AsTask().WaitAsync(Endpoints.Patience);
        Assert.Equal(new Price { Symbol = 7, Cents = 700 }, price);

        var rejected = await Assert.ThrowsAsync<RequestRejectedException>(() => requester.RequestAsync<Quote, Price>(new Quote { Symbol = -1 }).AsTask().WaitAsync(Endpoints.Patience));
        Assert.Equal(42, rejected.Code);
        Assert.Equal("no such symbol", rejected.Message);
        await StopAsync(serving);
    }

    [Fact]
    public async Task An_asynchronous_handler_replies_when_its_task_completes()
    {
        using var router = _context.Create(ZmqSocketType.Router);
        var responder = new ZmqResponder(router)
            .OnRequestAsync(static async (Quote quote) =>
            {
                await Task.Yield();
                return quote.Delay < 0 ? throw new RequestRejectedException(5, "later") : new Price { Symbol = quote.Symbol, Cents = 1 };
            });
        var endpoint = router.BindLoopback();
        var serving = responder.RunAsync(_stop.Token);
        using var dealer = _context.Create(ZmqSocketType.Dealer);
        dealer.Connect(endpoint);
        using var requester = new ZmqRequester(dealer);

        Assert.Equal(3, (await requester.RequestAsync<Quote, Price>(new Quote { Symbol = 3 }).AsTask().WaitAsync(Endpoints.Patience)).Symbol);
        var rejected = await Assert.ThrowsAsync<RequestRejectedException>(() => requester.RequestAsync<Quote, Price>(new Quote { Delay = -1 }).AsTask().WaitAsync(Endpoints.Patience));
        Assert.Equal(5, rejected.Code);
        await StopAsync(serving);
    }

    [Fact]
    public async Task Replies_that_arrive_in_reverse_order_complete_their_own_requests()
    {
        using var router = _context.Create(ZmqSocketType.Router);
        using var dealer = _context.Create(ZmqSocketType.Dealer);
        dealer.Connect(router.BindLoopback());
        using var requester = new ZmqRequester(dealer);

        var pending = Enumerable.Range(1, 8).Select(i => requester.RequestAsync<Quote, Price>(new Quote { Symbol = i }).AsTask()).ToArray();
        var received = Enumerable.Range(0, 8).Select(_ => ReceiveRequest(router)).ToArray();
        foreach (var (routingId, correlation, quote) in received.Reverse())
        {
            Reply(router, routingId, correlation, new Price { Symbol = quote.Symbol, Cents = quote.Symbol });
        }

        var prices = await Task.WhenAll(pending).WaitAsync(Endpoints.Patience);
        Assert.Equal(Enumerable.Range(1, 8), prices.Select(p => p.Symbol));
        Assert.Equal(Enumerable.Range(1, 8).Select(i => (long)i), prices.Select(p => p.Cents));
    }

    [Fact]
    public async Task A_request_times_out_and_its_late_reply_is_discarded_and_counted()
    {
        using var router = _context.Create(ZmqSocketType.Router);
        using var dealer = _context.Create(ZmqSocketType.Dealer);
        dealer.Connect(router.BindLoopback());
        using var requester = new ZmqRequester(dealer);

        var request = requester.RequestAsync<Quote, Price>(new Quote { Symbol = 1 }, TimeSpan.FromMilliseconds(50), default).AsTask();
        var (routingId, correlation, _) = ReceiveRequest(router);
        await Assert.ThrowsAsync<TimeoutException>(() => request.WaitAsync(Endpoints.Patience));
        Assert.Equal(0, requester.Outstanding);

        Reply(router, routingId, correlation, new Price { Symbol = 1 });
        await Until(() => requester.LateReplies == 1);
        Assert.Equal(0, dealer.DroppedMessages);
    }

    [Fact]
    public async Task Cancellation_fails_only_the_local_wait_and_the_reply_that_still_comes_is_counted_late()
    {
        using var router = _context.Create(ZmqSocketType.Router);
        using var dealer = _context.Create(ZmqSocketType.Dealer);
        dealer.Connect(router.BindLoopback());
        using var requester = new ZmqRequester(dealer);
        using var cancel = new CancellationTokenSource();

        var request = requester.RequestAsync<Quote, Price>(new Quote { Symbol = 1 }, cancel.Token).AsTask();
        var (routingId, correlation, _) = ReceiveRequest(router);
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => request.WaitAsync(Endpoints.Patience));

        Reply(router, routingId, correlation, new Price { Symbol = 1 });
        await Until(() => requester.LateReplies == 1);
    }

    [Fact]
    public async Task At_the_outstanding_bound_one_more_request_is_refused_at_once_and_a_reply_makes_room()
    {
        using var router = _context.Create(ZmqSocketType.Router);
        using var dealer = _context.Create(ZmqSocketType.Dealer);
        dealer.Connect(router.BindLoopback());
        using var requester = new ZmqRequester(dealer, new RequestOptions { MaxOutstanding = 2 });

        var first = requester.RequestAsync<Quote, Price>(new Quote { Symbol = 1 }).AsTask();
        var second = requester.RequestAsync<Quote, Price>(new Quote { Symbol = 2 }).AsTask();
        var refused = requester.RequestAsync<Quote, Price>(new Quote { Symbol = 3 });
        Assert.True(refused.IsFaulted);
        await Assert.ThrowsAsync<RequestLimitReachedException>(() => refused.AsTask());

        var (routingId, correlation, quote) = ReceiveRequest(router);
        Reply(router, routingId, correlation, new Price { Symbol = quote.Symbol });
        Assert.Equal(1, (await first.WaitAsync(Endpoints.Patience)).Symbol);

        var third = requester.RequestAsync<Quote, Price>(new Quote { Symbol = 3 }).AsTask();
        Assert.Equal(2, requester.Outstanding);
        requester.Dispose();
        await Assert.ThrowsAsync<ObjectDisposedException>(() => second.WaitAsync(Endpoints.Patience));
        await Assert.ThrowsAsync<ObjectDisposedException>(() => third.WaitAsync(Endpoints.Patience));
    }

    [Fact]
    public async Task Malformed_requests_and_replies_are_dropped_and_counted_while_a_witness_is_answered()
    {
        using var router = _context.Create(ZmqSocketType.Router);
        var responder = new ZmqResponder(router)
            .OnRequest(static (in Quote quote) => new Price { Symbol = quote.Symbol });
        var endpoint = router.BindLoopback();
        var serving = responder.RunAsync(_stop.Token);
        using var offender = _context.Create(ZmqSocketType.Dealer);
        offender.Connect(endpoint);
        using var dealer = _context.Create(ZmqSocketType.Dealer);
        dealer.Connect(endpoint);
        using var requester = new ZmqRequester(dealer);

        var frame = new System.Buffers.ArrayBufferWriter<byte>();
        var truncated = ZmqMessageFrames.Enveloped(frame, EnvelopeKind.Request, 1, new Quote { Symbol = 1 }).ToArray();
        offender.Send(truncated.AsSpan(0, truncated.Length - 3)); // the body ends inside a field
        offender.Send(ZmqMessageFrames.Enveloped(frame, EnvelopeKind.Request, 2, new Price()).ToArray()); // no handler for its id
        offender.Send("not an envelope"u8);
        await Until(() => router.DroppedMessages == 3);

        Assert.Equal(9, (await requester.RequestAsync<Quote, Price>(new Quote { Symbol = 9 }).AsTask().WaitAsync(Endpoints.Patience)).Symbol);
        Assert.Equal(3, router.DroppedMessages);
        await StopAsync(serving);
    }

    [Fact]
    public async Task A_reply_that_is_not_the_awaited_type_fails_its_request_and_is_counted()
    {
        using var router = _context.Create(ZmqSocketType.Router);
        using var dealer = _context.Create(ZmqSocketType.Dealer);
        dealer.Connect(router.BindLoopback());
        using var requester = new ZmqRequester(dealer);

        var request = requester.RequestAsync<Quote, Price>(new Quote { Symbol = 1 }).AsTask();
        var (routingId, correlation, _) = ReceiveRequest(router);
        Reply(router, routingId, correlation, new Quote { Symbol = 1 });
        await Assert.ThrowsAsync<Berth.Messages.MessageFormatException>(() => request.WaitAsync(Endpoints.Patience));
        Assert.Equal(1, dealer.DroppedMessages);

        // A reply to an id never issued answers nothing: dropped, not late.
        Reply(router, routingId, 1000, new Price());
        await Until(() => dealer.DroppedMessages == 2);
        Assert.Equal(0, requester.LateReplies);
    }

    [Fact]
    public async Task Shutting_the_context_down_fails_a_waiting_request_instead_of_leaving_it_to_its_timeout()
    {
        var context = new ZmqContext();
        var router = context.Create(ZmqSocketType.Router);
        var dealer = context.Create(ZmqSocketType.Dealer);
        dealer.Connect(router.BindLoopback());
        using var requester = new ZmqRequester(dealer, new RequestOptions { Timeout = Timeout.InfiniteTimeSpan });

        var request = requester.RequestAsync<Quote, Price>(new Quote { Symbol = 1 }).AsTask();
        ReceiveRequest(router);
        context.Dispose();

        var failure = await Assert.ThrowsAnyAsync<Exception>(() => request.WaitAsync(Endpoints.Patience));
        Assert.True(failure is ObjectDisposedException or ZmqException, failure.ToString());
        Assert.Equal(0, requester.Outstanding);
    }

    /// <summary>Ends the responder's loop, which holds the ROUTER, before the socket is disposed.</summary>
    private async Task StopAsync(Task serving)
    {
        Assert.False(serving.IsCompleted, serving.Exception?.ToString());
        await _stop.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => serving.WaitAsync(Endpoints.Patience));
    }

    private static (byte[] RoutingId, long Correlation, Quote Quote) ReceiveRequest(ZmqSocket router)
    {
        var frames = new List<byte[]>();
        router.ReceiveMultipart(frames);
        Assert.Equal(2, frames.Count);
        Assert.True(RequestEnvelope.TryRead(frames[1], out var header));
        Assert.Equal(EnvelopeKind.Request, header.Kind);
        Assert.True(MessageReading.TryRead<Quote>(frames[1].AsSpan(RequestEnvelope.HeaderLength), out var quote, out _));
        return (frames[0], header.Correlation, quote);
    }

    private static void Reply<TReply>(ZmqSocket router, byte[] routingId, long correlation, TReply reply)
        where TReply : Berth.Messages.IMessage<TReply>
    {
        router.Send(routingId, more: true);
        router.Send(ZmqMessageFrames.Enveloped(new System.Buffers.ArrayBufferWriter<byte>(), EnvelopeKind.Reply, correlation, reply));
    }

    /// <summary>Waits for a counter the reactor updates; the patience only guards against a hang.</summary>
    private static async Task Until(Func<bool> condition)
    {
        var deadline = DateTime.UtcNow + Endpoints.Patience;
        while (!condition())
        {
            Assert.True(DateTime.UtcNow < deadline, "the condition never held");
            await Task.Delay(5);
        }
    }
}
