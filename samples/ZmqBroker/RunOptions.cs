using System.Globalization;

namespace ZmqBroker;

/// <summary>The knobs of a run; each role reads the ones it needs and the orchestrator passes them on.</summary>
internal sealed record RunOptions
{
    /// <summary>Client processes, each sending its requests one after another.</summary>
    public int Clients { get; init; } = 2;

    /// <summary>Requests per client.</summary>
    public int Requests { get; init; } = 50;

    /// <summary>Worker processes; the first one is the one killed.</summary>
    public int Workers { get; init; } = 3;

    /// <summary>
    /// The request, counted from 1, at which a worker stops answering and keeps the request, as a hung worker does;
    /// 0 for a worker that never stalls. The orchestrator kills the stalled worker with SIGKILL.
    /// </summary>
    public int StallAt { get; init; } = 4;

    /// <summary>How long a client waits for a reply before it closes its socket and sends the request again.</summary>
    public TimeSpan Timeout { get; init; } = TimeSpan.FromMilliseconds(1500);

    /// <summary>How many times a client sends one request before it gives up on it.</summary>
    public int Attempts { get; init; } = 5;

    /// <summary>A worker started by hand never stalls unless told to.</summary>
    public static RunOptions WorkerDefaults { get; } = new() { StallAt = 0 };

    public static RunOptions Parse(ReadOnlySpan<string> arguments) => Parse(arguments, new RunOptions());

    public static RunOptions Parse(ReadOnlySpan<string> arguments, RunOptions defaults)
    {
        var options = defaults;
        for (var i = 0; i + 1 < arguments.Length; i += 2)
        {
            var value = int.Parse(arguments[i + 1], CultureInfo.InvariantCulture);
            ArgumentOutOfRangeException.ThrowIfNegative(value, arguments[i]);
            options = arguments[i] switch
            {
                "--clients" => options with { Clients = value },
                "--requests" => options with { Requests = value },
                "--workers" => options with { Workers = value },
                "--stall-at" => options with { StallAt = value },
                "--timeout-ms" => options with { Timeout = TimeSpan.FromMilliseconds(value) },
                "--attempts" => options with { Attempts = value },
                _ => throw new ArgumentException($"unknown option {arguments[i]}"),
            };
        }

        if (arguments.Length % 2 != 0)
        {
            throw new ArgumentException($"option {arguments[^1]} has no value");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(options.Workers, 1, "--workers");
        ArgumentOutOfRangeException.ThrowIfLessThan(options.Attempts, 1, "--attempts");
        return options;
    }

    /// <summary>The options a client process needs, as arguments.</summary>
    public string[] ClientArguments() =>
    [
        "--requests", Requests.ToString(CultureInfo.InvariantCulture),
        "--timeout-ms", ((int)Timeout.TotalMilliseconds).ToString(CultureInfo.InvariantCulture),
        "--attempts", Attempts.ToString(CultureInfo.InvariantCulture),
    ];
}
