using System.Buffers.Text;

namespace Berth.Benchmarks.Calls;

/// <summary>
/// Lets the call driver read this process's allocated bytes at the edges of its measured window: every byte read
/// from standard input is answered with one line on standard output holding <see cref="GC.GetTotalAllocatedBytes"/>
/// (precise). The buffers are made once, so asking allocates nothing that the next answer would count. When standard
/// input ends (the driver is gone), the process exits.
/// </summary>
internal static class AllocatedBytesProbe
{
    public static void Start() => new Thread(Answer) { IsBackground = true, Name = "allocated-bytes-probe" }.Start();

    private static void Answer()
    {
        using var input = Console.OpenStandardInput();
        using var output = Console.OpenStandardOutput();
        var asked = new byte[1];
        var line = new byte[32];
        while (input.Read(asked) > 0)
        {
            var allocated = GC.GetTotalAllocatedBytes(precise: true);
            Utf8Formatter.TryFormat(allocated, line, out var written);
            line[written++] = (byte)'\n';
            output.Write(line, 0, written);
            output.Flush();
        }

        Environment.Exit(0);
    }
}
