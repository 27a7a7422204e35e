using System.Diagnostics;
using Berth.Benchmarks.Messages.Protobuf;
using Grpc.Net.Client;

namespace Berth.Benchmarks.Calls;

/// <summary>
/// gRPC's side: one <see cref="GrpcChannel"/> per connection with its defaults (its own SocketsHttpHandler, so its
/// own HTTP/2 connection; the channel would open another only past the server's stream limit, which 64 outstanding
/// calls stay under with Kestrel's 100), each call a unary Echo.
/// </summary>
internal sealed class GrpcCalls : IDisposable
{
    private readonly List<GrpcChannel> _channels = [];
    private readonly List<Task> _loops = [];

    public IReadOnlyList<Task> Loops => _loops;

    public static async Task<GrpcCalls> StartAsync(int port, int connections, int outstanding, CallRecorder recorder)
    {
        var calls = new GrpcCalls();
        for (var c = 0; c < connections; c++)
        {
            var channel = GrpcChannel.ForAddress($"http://127.0.0.1:{port}");
            calls._channels.Add(channel);
            var client = new Messages.Protobuf.Calls.CallsClient(channel);
            // The channel connects on its first call: made here, so the warm-up begins with every connection answering.
            await client.EchoAsync(new Position { Id = c });
            for (var slot = 0; slot < outstanding; slot++)
            {
                calls._loops.Add(CallAsync(client, c * outstanding + slot, recorder));
            }
        }

        return calls;
    }

    public void Dispose()
    {
        foreach (var channel in _channels)
        {
            channel.Dispose();
        }
    }

    private static async Task CallAsync(Messages.Protobuf.Calls.CallsClient client, int id, CallRecorder recorder)
    {
        await Task.Yield();
        var request = new Position { Id = id, X = 1.5f, Y = -2.25f, Z = 1024f, Tick = 1L << 40 };
        try
        {
            while (!recorder.Stopping)
            {
                var start = Stopwatch.GetTimestamp();
                var reply = await client.EchoAsync(request);
                recorder.Record(start);
                request.Tick = reply.Tick;
            }
        }
        catch (Exception e)
        {
            recorder.Fail(e);
        }
    }
}
