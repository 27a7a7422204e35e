using System.Diagnostics;

namespace Berth.Zmq.Tests.Interop;

/// <summary>A JeroMQ process (pure Java ZeroMQ, no libzmq) running Peer.java, read line by line.</summary>
internal sealed class JeroMqPeer : IDisposable
{
    private const string JeroMqJar = "/usr/share/java/jeromq.jar";
    private static readonly TimeSpan Startup = TimeSpan.FromSeconds(60);
    private readonly Process _process;

    public JeroMqPeer(string role, string mode, string endpoint, int count)
    {
        Assert.True(File.Exists(JeroMqJar), $"{JeroMqJar} is missing: run scripts/setup.sh --java (Debian package libjeromq-java)");
        var source = Path.Combine(AppContext.BaseDirectory, "Interop", "Peer.java");
        var start = new ProcessStartInfo("java")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[] { "-cp", JeroMqJar, source, role, mode, endpoint, count.ToString(System.Globalization.CultureInfo.InvariantCulture) })
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start) ?? throw new InvalidOperationException("java did not start");
    }

    /// <summary>Reads the next stdout line, failing the test if none comes in time.</summary>
    public string ReadLine()
    {
        var line = _process.StandardOutput.ReadLineAsync();
        if (!line.Wait(Startup) || line.Result is null)
        {
            throw new TimeoutException($"JeroMQ peer said nothing; stderr: {StandardError()}");
        }

        return line.Result;
    }

    /// <summary>Waits for the peer to finish and returns its last line ("OK" on success).</summary>
    public string Finish()
    {
        var last = ReadLine();
        Assert.True(_process.WaitForExit(Startup), "JeroMQ peer did not exit");
        Assert.True(_process.ExitCode == 0, $"JeroMQ peer failed: {last} {StandardError()}");
        return last;
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        _process.Dispose();
    }

    private string StandardError() => _process.HasExited ? _process.StandardError.ReadToEnd() : "(still running)";
}
