using Berth.Connections;
using Microsoft.Extensions.Logging;

namespace Berth.Tests.Tcp;

/// <summary>
/// How a stop closes connections: idle ones at once, an active one (a frame partly received) only once that frame is
/// complete, delivered and its reply flushed, so a stop cuts no frame in two while its shutdown timeout lasts.
/// </summary>
public sealed class DrainingStopTests
{
    [Fact]
    public async Task AStopClosesIdleConnectionsFirstAndAnActiveOneAfterItsFrameIsEchoed()
    {
        var log = new StopLog();
        var options = new BerthServerOptions { ShutdownTimeout = TimeSpan.FromMinutes(5), LoggerFactory = log };
        var server = EchoTests.Start(options, new EchoHandler());
        using var idle = new RawClient(server.EndPoint);
        using var active = new RawClient(server.EndPoint);
        foreach (var client in new[] { idle, active })
        {
            client.SendFrame("hello"u8);
            Assert.Equal("hello"u8.ToArray(), client.ReceiveFrame());
        }

        var frame = RawClient.Frame("a frame cut in two by the network"u8);
        active.Send(frame.AsSpan(0, 10));
        await Waits.Until(() => server.Connections.Any(c => c.Lifetime.Activity.PartialFrameSinceTicks != 0));
        var activeConnection = server.Connections.Single(c => c.Lifetime.Activity.PartialFrameSinceTicks != 0);

        var stopping = server.StopAsync();
        Assert.Equal(1, await log.ActiveAfterFirstPass.Within());
        Assert.True(idle.WaitForClose());
        Assert.True(activeConnection.IsConnected);

        active.Send(frame.AsSpan(10));
        Assert.Equal("a frame cut in two by the network"u8.ToArray(), active.ReceiveFrame());
        Assert.True(active.WaitForClose());
        idle.Socket.Close();
        active.Socket.Close();
        await stopping.Within();

        var closed = await activeConnection.Closed.Within();
        Assert.Equal(DisconnectReason.ServerStopping, closed.Reason);
        Assert.Equal(0, closed.UnsentFrames);
        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    /// <summary>Catches the server's word that its first pass over the connections is done, and how many it left open.</summary>
    private sealed class StopLog : ILoggerFactory, ILogger
    {
        private readonly TaskCompletionSource<int> _activeAfterFirstPass = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task<int> ActiveAfterFirstPass => _activeAfterFirstPass.Task;

        public ILogger CreateLogger(string categoryName) => this;

        public void AddProvider(ILoggerProvider provider)
        {
        }

        public void Dispose()
        {
        }

        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (eventId.Name == "WaitingForFrameBoundaries" && state is IReadOnlyList<KeyValuePair<string, object?>> values)
            {
                _activeAfterFirstPass.TrySetResult((int)values.First(v => v.Key == "Active").Value!);
            }
        }
    }
}
