using System.Buffers;
using System.Buffers.Binary;
using System.IO.Pipelines;
using Microsoft.AspNetCore.Connections;

namespace Berth.KestrelEcho;

/// <summary>
/// Echoes Berth's default frames (u32 little-endian body length, then the body) byte-identical. Every whole frame
/// received in one read is copied to the output in one pass and flushed once; a partial frame stays in the pipe.
/// A length over <see cref="MaxBodyLength"/> closes the connection.
/// </summary>
internal sealed class FramedEchoHandler : ConnectionHandler
{
    /// <summary>The same limit as Berth's default format and the C echo server.</summary>
    public const int MaxBodyLength = 1 << 20;

    public override async Task OnConnectedAsync(ConnectionContext connection)
    {
        var input = connection.Transport.Input;
        var output = connection.Transport.Output;
        while (true)
        {
            var result = await input.ReadAsync();
            var buffer = result.Buffer;
            var whole = WholeFramesLength(buffer);
            if (whole < 0)
            {
                break;
            }

            if (whole > 0)
            {
                Copy(buffer.Slice(0, whole), output);
                input.AdvanceTo(buffer.GetPosition(whole), buffer.End);
                var flush = await output.FlushAsync();
                if (flush.IsCompleted)
                {
                    break;
                }
            }
            else
            {
                input.AdvanceTo(buffer.Start, buffer.End);
            }

            if (result.IsCompleted || result.IsCanceled)
            {
                break;
            }
        }
    }

    /// <summary>Bytes taken by the whole frames at the start of <paramref name="buffer"/>; -1 for an oversized frame.</summary>
    private static long WholeFramesLength(ReadOnlySequence<byte> buffer)
    {
        var reader = new SequenceReader<byte>(buffer);
        long whole = 0;
        while (reader.TryReadLittleEndian(out int length))
        {
            if ((uint)length > MaxBodyLength)
            {
                return -1;
            }

            if (reader.Remaining < length)
            {
                break;
            }

            reader.Advance(length);
            whole = reader.Consumed;
        }

        return whole;
    }

    private static void Copy(ReadOnlySequence<byte> frames, PipeWriter output)
    {
        foreach (var segment in frames)
        {
            output.Write(segment.Span);
        }
    }
}
