using System.IO.Pipelines;

namespace Berth.Benchmarks.Core;

/// <summary>Feeds a <see cref="Pipe"/> the way a socket receive loop would.</summary>
internal static class PipeFill
{
    public static Pipe NewPipe() => new(new PipeOptions(pauseWriterThreshold: 0, useSynchronizationContext: false));

    public static void Fill(PipeWriter writer, byte[] data)
    {
        data.CopyTo(writer.GetSpan(data.Length));
        writer.Advance(data.Length);
        _ = writer.FlushAsync().GetAwaiter().GetResult();
    }
}
