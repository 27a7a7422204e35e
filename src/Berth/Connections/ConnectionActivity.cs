namespace Berth.Connections;

/// <summary>
/// When a connection last made progress, stamped by its receive and send paths and read by the
/// <see cref="TimeoutSweeper"/>: the last receive (idle timeout), the first byte of a frame still partly received
/// (frame timeout), and when the receive loop paused for a full send queue against the last completed send
/// (slow-consumer timeout). Plain timestamps, so the hot paths allocate nothing and set no timer.
/// </summary>
internal sealed class ConnectionActivity
{
    private long _lastReceiveTicks = Environment.TickCount64;
    private long _pausedSinceTicks;
    private long _lastSendProgressTicks;
    private long _partialFrameSinceTicks;

    public long LastReceiveTicks => Volatile.Read(ref _lastReceiveTicks);

    /// <summary>When the receive loop paused for a full send queue (0 while it is not paused).</summary>
    public long PausedSinceTicks => Volatile.Read(ref _pausedSinceTicks);

    /// <summary>When the first byte of the frame now partly received arrived (0 when no frame is partly received).</summary>
    public long PartialFrameSinceTicks => Volatile.Read(ref _partialFrameSinceTicks);

    /// <summary>When a send last completed.</summary>
    public long LastSendProgressTicks => Volatile.Read(ref _lastSendProgressTicks);

    public void Received() => Volatile.Write(ref _lastReceiveTicks, Environment.TickCount64);

    /// <summary>
    /// After a delivery: <paramref name="partialBytes"/> of an incomplete frame are left, and
    /// <paramref name="frameBegan"/> when they belong to a frame that began in the last receive.
    /// </summary>
    public void PartialFrameLeft(long partialBytes, bool frameBegan)
    {
        if (partialBytes == 0)
        {
            Volatile.Write(ref _partialFrameSinceTicks, 0);
        }
        else if (frameBegan || _partialFrameSinceTicks == 0)
        {
            Volatile.Write(ref _partialFrameSinceTicks, Environment.TickCount64);
        }
    }

    public void SendProgressed() => Volatile.Write(ref _lastSendProgressTicks, Environment.TickCount64);

    /// <summary>The receive loop stops for a full send queue; the stall clock for <see cref="ConnectionOptions.SlowConsumerTimeout"/> starts.</summary>
    /// <remarks>A frame cannot complete while the loop reads nothing, so the frame clock restarts on resume.</remarks>
    public void PauseReceiving()
    {
        Volatile.Write(ref _partialFrameSinceTicks, 0);
        Volatile.Write(ref _pausedSinceTicks, Environment.TickCount64);
    }

    public void ResumeReceiving() => Volatile.Write(ref _pausedSinceTicks, 0);
}
