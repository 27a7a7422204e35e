using System.Buffers;
using System.Net.Sockets;
using Berth.Connections;
using Berth.Tests.Tcp;
using Berth.Unix;

namespace Berth.Tests.UnixSockets;

/// <summary>
/// What only Unix domain sockets have: the socket file's life, the peer's credentials, the client's path. Echo,
/// hostile input, backpressure and allocation run over them with every transport (<see cref="TransportKind.Unix"/>).
/// </summary>
public sealed class UnixSocketTests : IDisposable
{
    private readonly DirectoryInfo _directory = Directory.CreateTempSubdirectory("berth-unix-");

    private string SocketPath => Path.Combine(_directory.FullName, "berth.sock");

    public static TheoryData<HandlerScheduling> Schedulings => new(HandlerScheduling.Inline, HandlerScheduling.ThreadPool);

    public void Dispose() => _directory.Delete(recursive: true);

    [Theory]
    [MemberData(nameof(Schedulings))]
    public async Task A_client_echoes_over_a_unix_socket_and_the_server_sees_its_process(HandlerScheduling scheduling)
    {
        var handler = new RecordingHandler();
        var options = new BerthServerOptions { UnixSocketPath = SocketPath, HandlerScheduling = scheduling };
        await using (var server = EchoTests.Start(options, handler))
        {
            var reply = new FirstFrame();
            await using var client = new Berth.Connections.BerthClient(new BerthClientOptions { UnixSocketPath = SocketPath, HandlerScheduling = scheduling }, reply);
            var connection = await client.ConnectAsync();
            Assert.True(connection.TrySend([1, 2, 3]));
            Assert.Equal(new byte[] { 1, 2, 3 }, await reply.Body.Task.Within());

            var accepted = await handler.FirstConnection.Within();
            Assert.True(accepted.TryGetPeerCredentials(out var credentials));
            Assert.Equal(Environment.ProcessId, credentials.ProcessId);
            Assert.IsType<UnixDomainSocketEndPoint>(accepted.LocalEndPoint);
        }

        Assert.False(File.Exists(SocketPath));
        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task Over_tcp_there_are_no_peer_credentials()
    {
        var handler = new RecordingHandler();
        await using var server = EchoTests.Start(new BerthServerOptions(), handler);
        using var client = new RawClient(server.EndPoint);
        Assert.False((await handler.FirstConnection.Within()).TryGetPeerCredentials(out _));
    }

    [Fact]
    public async Task A_stale_socket_file_is_replaced_and_the_mode_is_set_at_bind()
    {
        // Bound and never listening: to the kernel the same as a socket file whose process is gone (a connect is
        // refused). Disposing it would unlink the file, so it stays open until after the server.
        using var gone = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        gone.Bind(new UnixDomainSocketEndPoint(SocketPath));
        Assert.True(File.Exists(SocketPath));
        var options = new BerthServerOptions { UnixSocketPath = SocketPath, UnixSocketMode = UnixFileMode.UserRead | UnixFileMode.UserWrite };
        await using var server = EchoTests.Start(options);
        if (OperatingSystem.IsLinux())
        {
            Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(SocketPath));
        }

        using var client = Connect();
        Echo(client, [5]);
    }

    [Fact]
    public void A_path_that_is_not_a_socket_is_left_alone()
    {
        File.WriteAllText(SocketPath, "precious");
        var server = new BerthServer(new BerthServerOptions { UnixSocketPath = SocketPath }, new EchoHandler());
        Assert.Throws<IOException>(server.Start);
        Assert.Equal("precious", File.ReadAllText(SocketPath));
    }

    [Fact]
    public async Task A_socket_another_server_listens_on_is_left_alone()
    {
        await using var first = EchoTests.Start(new BerthServerOptions { UnixSocketPath = SocketPath });
        var second = new BerthServer(new BerthServerOptions { UnixSocketPath = SocketPath }, new EchoHandler());
        Assert.Throws<IOException>(second.Start);
        using var client = Connect();
        Echo(client, [6]);
    }

    private Socket Connect()
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
        {
            ReceiveTimeout = (int)Waits.Patience.TotalMilliseconds,
            SendTimeout = (int)Waits.Patience.TotalMilliseconds,
        };
        socket.Connect(new UnixDomainSocketEndPoint(SocketPath));
        return socket;
    }

    private static void Echo(Socket socket, byte[] body)
    {
        socket.Send(RawClient.Frame(body));
        var reply = new byte[4 + body.Length];
        for (var received = 0; received < reply.Length;)
        {
            var n = socket.Receive(reply.AsSpan(received));
            Assert.NotEqual(0, n);
            received += n;
        }

        Assert.Equal(body, reply[4..]);
    }

    private sealed class FirstFrame : ConnectionHandler
    {
        public TaskCompletionSource<byte[]> Body { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) => Body.TrySetResult(body.ToArray());
    }
}
