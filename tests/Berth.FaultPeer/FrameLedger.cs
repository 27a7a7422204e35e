using System.Buffers;
using System.Buffers.Binary;
using Berth.Tcp;

namespace Berth.FaultPeer;

/// <summary>What happened to every numbered frame: accepted by a send, echoed (how often), or reported unsent.</summary>
internal sealed class FrameLedger(int frames) : ConnectionHandler
{
    private readonly int[] _echoes = new int[frames];
    private readonly bool[] _accepted = new bool[frames];
    private readonly Lock _lock = new();
    private long _acceptedCount;
    private long _echoedCount;
    private long _unsent;
    private long _echoedAfterReconnect;
    private int _connects;

    public void Accepted(int id)
    {
        lock (_lock)
        {
            _accepted[id] = true;
            _acceptedCount++;
        }
    }

    public override void OnConnected(Connection connection)
    {
        Interlocked.Increment(ref _connects);
        Console.WriteLine("connected");
    }

    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
    {
        Span<byte> id = stackalloc byte[4];
        body.Slice(0, 4).CopyTo(id);
        lock (_lock)
        {
            _echoes[BinaryPrimitives.ReadInt32LittleEndian(id)]++;
            _echoedCount++;
            _echoedAfterReconnect += Volatile.Read(ref _connects) > 1 ? 1 : 0;
        }
    }

    public override void OnDisconnected(Connection connection, DisconnectInfo info)
    {
        Interlocked.Add(ref _unsent, info.UnsentFrames);
        Console.WriteLine($"disconnected {info.Reason} unsent {info.UnsentFrames}");
    }

    /// <summary>Waits until every accepted frame is echoed or counted unsent, or <paramref name="limit"/> passed.</summary>
    public async Task AllSettledAsync(TimeSpan limit)
    {
        var giveUp = DateTime.UtcNow + limit;
        while (DateTime.UtcNow < giveUp && Interlocked.Read(ref _echoedCount) + Interlocked.Read(ref _unsent) < Interlocked.Read(ref _acceptedCount))
        {
            await Task.Delay(100);
        }
    }

    public string Summary()
    {
        lock (_lock)
        {
            var echoedOnce = 0;
            var duplicated = 0;
            var unexpected = 0;
            var missing = 0;
            for (var id = 0; id < _echoes.Length; id++)
            {
                echoedOnce += _echoes[id] == 1 ? 1 : 0;
                duplicated += _echoes[id] > 1 ? 1 : 0;
                unexpected += _echoes[id] > 0 && !_accepted[id] ? 1 : 0;
                missing += _accepted[id] && _echoes[id] == 0 ? 1 : 0;
            }

            return $"summary accepted {_acceptedCount} echoed-once {echoedOnce} duplicated {duplicated} unexpected {unexpected} missing {missing} unsent {Interlocked.Read(ref _unsent)} connects {_connects} echoed-after-reconnect {_echoedAfterReconnect}";
        }
    }
}
