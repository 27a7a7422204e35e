using System.IO.Pipelines;
using Berth.Buffers;

namespace Berth.Benchmarks.Core;

/// <summary>Copies a block into a receive buffer the way a socket receive would.</summary>
internal static class ReceiveBufferFill
{
    public static Pipe NewPipe() => new(new PipeOptions(pauseWriterThreshold: 0, useSynchronizationContext: false));

    public static void Fill(RingBuffer ring, byte[] data)
    {
        var written = 0;
        while (written < data.Length)
        {
            var memory = ring.GetWriteMemory(data.Length - written);
            var chunk = Math.Min(memory.Length, data.Length - written);
            data.AsSpan(written, chunk).CopyTo(memory.Span);
            ring.Advance(chunk);
            written += chunk;
        }
    }

    public static void Fill(PipeWriter writer, byte[] data)
    {
        data.CopyTo(writer.GetSpan(data.Length));
        writer.Advance(data.Length);
        _ = writer.FlushAsync().GetAwaiter().GetResult();
    }
}
