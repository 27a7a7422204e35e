using Berth.Connections;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp;

[CollectionDefinition(nameof(AllocationTests), DisableParallelization = true)]
public sealed class AllocationCollection;

/// <summary>
/// Steady-state echo must allocate nothing per message on the server. The client is a blocking socket with
/// buffers allocated before the measurement, so it allocates nothing either; the measured process-wide count of
/// <see cref="GC.GetTotalAllocatedBytes(bool)"/> is then the server's, plus whatever the runtime allocates in the
/// background. The bytes allocated must not grow with the number of echoes (<see cref="AllocationGrowth"/>).
/// The collection runs alone so other tests add nothing.
/// </summary>
[Collection(nameof(AllocationTests))]
public sealed class AllocationTests(ITestOutputHelper output)
{
    private const int Pipeline = 16;

    /// <summary>
    /// Every size over the plain transports; TLS at 64 B only. At 4 and 64 KiB, SslStream (both ends are in this
    /// process) rents its record buffers from <see cref="System.Buffers.ArrayPool{T}.Shared"/> and misses now and then,
    /// one large array every few tens of thousands of messages (0.5 to 1.1 B per message over 100,000), which grows
    /// with the number of messages past the <see cref="AllocationGrowth.Allowance"/>.
    /// </summary>
    public static TheoryData<int, TransportKind> SizesOverEachTransport()
    {
        var data = new TheoryData<int, TransportKind>();
        foreach (var kind in Enum.GetValues<TransportKind>())
        {
            foreach (var size in kind == TransportKind.Tls ? [64] : (int[])[64, 4096, 65536])
            {
                data.Add(size, kind);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(SizesOverEachTransport))]
    public async Task EchoRoundTripsAllocateNothingPerMessageAfterWarmUp(int size, TransportKind kind)
    {
        const int messages = 10_000;
        var options = new BerthServerOptions().On(kind);
        await using var server = EchoTests.Start(options);
        using var client = new RawClient(server.EndPoint, kind);
        var burst = new byte[Pipeline * (4 + size)];
        for (var i = 0; i < Pipeline; i++)
        {
            RawClient.Frame(new byte[size]).CopyTo(burst, i * (4 + size));
        }

        var replies = new byte[burst.Length];

        // The blocking client gets a thread of its own: blocking a pool thread would make the pool inject threads,
        // and that allocates during the measurement.
        var growth = await Task.Factory.StartNew(
            () =>
            {
                RoundTrips(client, burst, replies, 20_000);
                return AllocationGrowth.Measure(count => RoundTrips(client, burst, replies, count), messages, output, $"{size} B, {kind}");
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);

        Assert.True(growth < AllocationGrowth.Allowance, $"{growth} more bytes allocated over {10 * messages} echoes than over {messages}");
    }

    private static void RoundTrips(RawClient client, byte[] burst, byte[] replies, int messages)
    {
        for (var sent = 0; sent < messages; sent += Pipeline)
        {
            client.Send(burst);
            client.ReceiveExactly(replies);
        }
    }
}
