namespace Berth.Cli.Compare;

/// <summary>How to start one of the compared servers; each one takes <c>--port 0</c> and prints <c>listening on HOST:PORT</c>.</summary>
internal sealed record EchoServerCommand(string Name, string FileName, IReadOnlyList<string> Arguments);
