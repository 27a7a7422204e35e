namespace Berth.Cli.Balancer;

/// <summary>What <c>berth rolling-restart</c> was asked for: clients, each one's window of frames in flight and pace, and the backends' drain delay.</summary>
internal sealed record RollingRestartSettings(int Clients, int Window, TimeSpan SendInterval, TimeSpan DrainDelay, string? DataPath);
