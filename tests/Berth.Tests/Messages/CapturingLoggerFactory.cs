using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace Berth.Tests.Messages;

/// <summary>Keeps every formatted log line, so a test can read what the server logged.</summary>
internal sealed class CapturingLoggerFactory : ILoggerFactory, ILogger
{
    public ConcurrentQueue<string> Lines { get; } = new();

    public ILogger CreateLogger(string categoryName) => this;

    public void AddProvider(ILoggerProvider provider) => throw new NotSupportedException();

    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => true;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
        Lines.Enqueue($"{logLevel}: {formatter(state, exception)}");

    public void Dispose()
    {
    }
}
