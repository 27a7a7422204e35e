using System.Diagnostics;
using System.Globalization;

namespace Berth.Cli.Zmq;

/// <summary>Runs the reference programs of <c>berth zmq bench</c> as child processes and reads their <c>key=value</c> output.</summary>
internal static class ChildProgram
{
    /// <summary>Runs <paramref name="file"/> and returns its <c>key=value</c> output; a failure names the program and its first error line.</summary>
    public static IReadOnlyDictionary<string, double> RunForValues(string file, IEnumerable<string> arguments, string installHint)
    {
        var (exit, output, error) = Execute(file, arguments, installHint, measured: true);
        if (exit != 0)
        {
            throw new InvalidOperationException($"{Path.GetFileName(file)} failed: {FirstLine(error)}");
        }

        var values = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var pair in output.Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var separator = pair.IndexOf('=', StringComparison.Ordinal);
            values[pair[..separator]] = double.Parse(pair[(separator + 1)..], CultureInfo.InvariantCulture);
        }

        return values;
    }

    /// <summary>Runs <paramref name="file"/> to its end; a <paramref name="measured"/> program runs under the bench's malloc settings.</summary>
    public static (int Exit, string Output, string Error) Execute(string file, IEnumerable<string> arguments, string installHint, bool measured = false)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        if (measured)
        {
            BenchMallocSettings.ApplyTo(start);
        }
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        try
        {
            using var process = Process.Start(start) ?? throw new InvalidOperationException($"{file} did not start");
            var error = process.StandardError.ReadToEndAsync();
            var output = process.StandardOutput.ReadToEnd();
            process.WaitForExit();
            return (process.ExitCode, output, error.Result);
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new InvalidOperationException($"cannot run {Path.GetFileName(file)}: {e.Message} ({installHint})");
        }
    }

    public static string FirstLine(string text) => text.Split('\n', 2)[0].Trim();

    public static string[] SizeAndCount(int size, int count) =>
        [size.ToString(CultureInfo.InvariantCulture), count.ToString(CultureInfo.InvariantCulture)];
}
