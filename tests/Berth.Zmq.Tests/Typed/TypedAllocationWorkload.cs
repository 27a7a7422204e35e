namespace Berth.Zmq.Tests.Typed;

/// <summary>
/// Typed traffic for the process-wide allocation count: struct messages sent and received over tcp loopback, and
/// awaited request/response round trips between a <see cref="ZmqRequester"/> and a <see cref="ZmqResponder"/> whose
/// loop, reactor and replies run on other threads. N then 10N, after a warm-up, in pairs; the pair that grew least is kept.
/// </summary>
public static class TypedAllocationWorkload
{
    private const int Messages = 5_000;
    private const int WarmUp = 2_000;
    private const int Pairs = 3;

    /// <summary>Runs <paramref name="mode"/> (<c>messages</c> or <c>requests</c>) and returns the bytes over N and 10N.</summary>
    public static async Task<AllocationWorkload.Allocation> MeasureAsync(ZmqContext context, string mode)
    {
        Func<int, Task> run;
        var disposables = new List<IDisposable>();
        using var stop = new CancellationTokenSource();
        Task? serving = null;
        if (mode == "messages")
        {
            var pull = context.Create(ZmqSocketType.Pull);
            var push = context.Create(ZmqSocketType.Push);
            disposables.Add(push);
            disposables.Add(pull);
            push.Connect(pull.BindLoopback());
            run = count =>
            {
                var position = new Position { PlayerId = 1, X = 2, Y = 3, Facing = 4 };
                for (var i = 0; i < count; i++)
                {
                    position.Tick = i;
                    push.SendMessage(position);
                    if (pull.ReceiveMessage<Position>().Tick != i)
                    {
                        throw new InvalidOperationException("a message was lost");
                    }
                }

                return Task.CompletedTask;
            };
        }
        else
        {
            var router = context.Create(ZmqSocketType.Router);
            var dealer = context.Create(ZmqSocketType.Dealer);
            disposables.Add(dealer);
            disposables.Add(router);
            var responder = new ZmqResponder(router).OnRequest(static (in Quote quote) => new Price { Symbol = quote.Symbol, Cents = quote.Delay });
            var endpoint = router.BindLoopback();
            serving = responder.RunAsync(stop.Token);
            dealer.Connect(endpoint);
            var requester = new ZmqRequester(dealer);
            disposables.Insert(0, requester);
            run = async count =>
            {
                for (var i = 0; i < count; i++)
                {
                    var price = await requester.RequestAsync<Quote, Price>(new Quote { Symbol = i, Delay = i });
                    if (price.Symbol != i)
                    {
                        throw new InvalidOperationException("a reply went to the wrong request");
                    }
                }
            };
        }

        try
        {
            await run(WarmUp);
            var best = new AllocationWorkload.Allocation(0, long.MaxValue, Messages);
            for (var pair = 0; pair < Pairs; pair++)
            {
                var before = GC.GetTotalAllocatedBytes(precise: true);
                await run(Messages);
                var few = GC.GetTotalAllocatedBytes(precise: true) - before;
                before = GC.GetTotalAllocatedBytes(precise: true);
                await run(10 * Messages);
                var many = GC.GetTotalAllocatedBytes(precise: true) - before;
                if (many - few < best.Many - best.Few)
                {
                    best = new AllocationWorkload.Allocation(few, many, Messages);
                }
            }

            return best;
        }
        finally
        {
            await stop.CancelAsync();
            if (serving is not null)
            {
                await Task.WhenAny(serving);
            }

            foreach (var disposable in disposables)
            {
                disposable.Dispose();
            }
        }
    }
}
