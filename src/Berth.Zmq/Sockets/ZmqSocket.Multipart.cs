using Berth.Zmq.Native;

namespace Berth.Zmq;

public sealed unsafe partial class ZmqSocket
{
    /// <summary>Sends the frames as one multipart message (delivered all or nothing).</summary>
    /// <param name="frames">The frames, first to last; at least one.</param>
    /// <exception cref="TimeoutException"><see cref="SendTimeout"/> elapsed before the first frame was accepted.</exception>
    public void SendMultipart(params ReadOnlySpan<ReadOnlyMemory<byte>> frames)
    {
        if (frames.IsEmpty)
        {
            throw new ArgumentException("a multipart message needs at least one frame", nameof(frames));
        }

        Enter();
        try
        {
            for (var i = 0; i < frames.Length; i++)
            {
                // libzmq accepts the remaining frames once the first is in, so only the first can time out.
                if (!SendCore(frames[i].Span, i < frames.Length - 1 ? SendMoreFlag : 0))
                {
                    throw SendTimedOut();
                }
            }
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Receives every frame of the next multipart message as new arrays (convenient, allocates).</summary>
    /// <param name="frames">Cleared, then filled with the frames in order.</param>
    /// <exception cref="TimeoutException"><see cref="ReceiveTimeout"/> elapsed before the first frame arrived.</exception>
    public void ReceiveMultipart(List<byte[]> frames)
    {
        ArgumentNullException.ThrowIfNull(frames);
        frames.Clear();
        Enter();
        try
        {
            var msg = Scratch;
            do
            {
                if (!ReceiveMessageCore(msg, 0))
                {
                    throw ReceiveTimedOut();
                }

                frames.Add(new ReadOnlySpan<byte>(LibZmq.MsgData(msg), (int)LibZmq.MsgSize(msg)).ToArray());
            }
            while (LibZmq.MsgMore(msg) != 0);
        }
        finally
        {
            Exit();
        }
    }
}
