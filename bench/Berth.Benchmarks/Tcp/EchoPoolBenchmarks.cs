using System.Buffers;
using System.Net.Sockets;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using Berth.Framing;
using Berth.Connections;

namespace Berth.Benchmarks.Tcp;

/// <summary>
/// Echo throughput of a real <see cref="BerthServer"/> over loopback with each connection pool: the
/// <see cref="ReleasingArrayPool"/> default against the <see cref="ArrayPool{T}.Create(int, int)"/> pool it replaced.
/// A client writes a burst of frames in one send and reads every echo back; results are per frame.
/// </summary>
[MemoryDiagnoser]
public class EchoPoolBenchmarks
{
    private const int FramesPerBurst = 16;
    private BerthServer _server = null!;
    private Socket _client = null!;
    private byte[] _burst = null!;
    private byte[] _echoes = null!;

    [Params(1024, 16384)]
    public int Size { get; set; }

    [Params("ArrayPoolCreate", "Releasing")]
    public string Pool { get; set; } = "";

    [GlobalSetup]
    public void Setup()
    {
        var pool = Pool == "Releasing"
            ? new BufferPool(new ReleasingArrayPool(2 * 1024 * 1024, 32 * 1024 * 1024, TimeSpan.FromSeconds(5)))
            : new BufferPool(ArrayPool<byte>.Create(2 * 1024 * 1024, 1024));
        _server = new BerthServer(new BerthServerOptions { BufferPool = pool }, new EchoHandler());
        _server.Start();
        _client = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        _client.Connect(_server.EndPoint);
        var frame = 4 + Size;
        _burst = new byte[frame * FramesPerBurst];
        for (var i = 0; i < FramesPerBurst; i++)
        {
            LengthFieldFormat.Berth.WriteHeader(_burst.AsSpan(i * frame), Size);
        }

        _echoes = new byte[_burst.Length];
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _client.Dispose();
        _server.StopAsync().GetAwaiter().GetResult();
    }

    [Benchmark(OperationsPerInvoke = FramesPerBurst)]
    public async Task EchoBurst()
    {
        var send = _client.SendAsync(_burst.AsMemory(), SocketFlags.None);
        var received = 0;
        while (received < _echoes.Length)
        {
            var count = await _client.ReceiveAsync(_echoes.AsMemory(received), SocketFlags.None);
            received += count > 0 ? count : throw new InvalidOperationException("The server closed the connection.");
        }

        await send;
    }
}
