using System.Buffers;
using System.Diagnostics;
using Berth.Buffers;
using Berth.Benchmarks.Messages;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Messages.Requests;

namespace Berth.Benchmarks.Calls;

/// <summary>Berth's side: one <see cref="BerthClient"/> per connection, each call a typed request awaiting its reply.</summary>
internal sealed class BerthCalls : IAsyncDisposable
{
    private readonly List<BerthClient> _clients = [];
    private readonly List<Task> _loops = [];

    public IReadOnlyList<Task> Loops => _loops;

    /// <summary>The body length of one request frame as <see cref="CallAsync"/> sends it: the envelope, then the message.</summary>
    public static long RequestBodyBytes()
    {
        var writer = new PacketWriter(new ArrayBufferWriter<byte>());
        RequestEnvelope.Write(ref writer, new EnvelopeHeader(EnvelopeKind.Request, 1, Position.MessageId));
        Position.Write(ref writer, NewRequest(0));
        writer.Flush();
        return writer.BytesWritten;
    }

    public static async Task<BerthCalls> StartAsync(int port, int connections, int outstanding, CallRecorder recorder)
    {
        var calls = new BerthCalls();
        for (var c = 0; c < connections; c++)
        {
            var client = new BerthClient(new BerthClientOptions { Port = port }, new PacketRouter());
            calls._clients.Add(client);
            var connection = await client.ConnectAsync();
            // One call before the loops start, so the warm-up begins with every connection answering.
            await connection.RequestAsync<Position, Position>(new Position { Id = c });
            for (var slot = 0; slot < outstanding; slot++)
            {
                calls._loops.Add(CallAsync(connection, c * outstanding + slot, recorder));
            }
        }

        return calls;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var client in _clients)
        {
            await client.DisposeAsync();
        }
    }

    private static async Task CallAsync(Connection connection, int id, CallRecorder recorder)
    {
        await Task.Yield();
        var request = NewRequest(id);
        try
        {
            while (!recorder.Stopping)
            {
                var start = Stopwatch.GetTimestamp();
                var reply = await connection.RequestAsync<Position, Position>(request);
                recorder.Record(start);
                request.Tick = reply.Tick;
            }
        }
        catch (Exception e)
        {
            recorder.Fail(e);
        }
    }

    private static Position NewRequest(int id) => new() { Id = id, X = 1.5f, Y = -2.25f, Z = 1024f, Tick = 1L << 40 };
}
