using System.Threading.Channels;
using System.Threading.Tasks.Dataflow;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// Moving a batch of messages through a queue from a producer to a consumer, the queue created per
/// batch as in the source article. One operation is one batch; the report divides by
/// <see cref="MessageCount"/> for the per-message figure. Messages are one shared array so the
/// allocations measured are the queue's own.
/// </summary>
[MemoryDiagnoser]
public class ChannelVsBufferBlockBenchmarks
{
    private const int BoundedCapacity = 64;
    private readonly byte[] _message = new byte[64];

    [Params(100, 1000)]
    public int MessageCount { get; set; }

    [Benchmark(Baseline = true)]
    public async Task<int> BufferBlockAsync()
    {
        var block = new BufferBlock<byte[]>();
        var consumer = ConsumeAsync(block);
        for (var i = 0; i < MessageCount; i++)
        {
            await block.SendAsync(_message);
        }

        block.Complete();
        return await consumer;
    }

    [Benchmark]
    public int BufferBlockPostSync()
    {
        var block = new BufferBlock<byte[]>();
        for (var i = 0; i < MessageCount; i++)
        {
            block.Post(_message);
        }

        var received = 0;
        while (block.TryReceive(out var message))
        {
            received += message.Length;
        }

        return received;
    }

    [Benchmark]
    public async Task<int> ChannelUnbounded()
    {
        var channel = Channel.CreateUnbounded<byte[]>(new UnboundedChannelOptions { SingleReader = true });
        return await ProduceAndConsumeAsync(channel);
    }

    [Benchmark]
    public async Task<int> ChannelBounded()
    {
        var channel = Channel.CreateBounded<byte[]>(new BoundedChannelOptions(BoundedCapacity) { SingleReader = true });
        return await ProduceAndConsumeAsync(channel);
    }

    [Benchmark]
    public int ChannelTryWriteSync()
    {
        var channel = Channel.CreateUnbounded<byte[]>(new UnboundedChannelOptions { SingleReader = true });
        for (var i = 0; i < MessageCount; i++)
        {
            channel.Writer.TryWrite(_message);
        }

        var received = 0;
        while (channel.Reader.TryRead(out var message))
        {
            received += message.Length;
        }

        return received;
    }

    private async Task<int> ProduceAndConsumeAsync(Channel<byte[]> channel)
    {
        var consumer = ConsumeAsync(channel.Reader);
        for (var i = 0; i < MessageCount; i++)
        {
            await channel.Writer.WriteAsync(_message);
        }

        channel.Writer.Complete();
        return await consumer;
    }

    private static async Task<int> ConsumeAsync(ChannelReader<byte[]> reader)
    {
        var received = 0;
        while (await reader.WaitToReadAsync())
        {
            while (reader.TryRead(out var message))
            {
                received += message.Length;
            }
        }

        return received;
    }

    private static async Task<int> ConsumeAsync(BufferBlock<byte[]> block)
    {
        var received = 0;
        while (await block.OutputAvailableAsync())
        {
            while (block.TryReceive(out var message))
            {
                received += message.Length;
            }
        }

        return received;
    }
}
