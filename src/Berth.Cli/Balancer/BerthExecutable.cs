namespace Berth.Cli.Balancer;

/// <summary>How this process starts another <c>berth</c>: itself again, as a native binary or through the dotnet host.</summary>
internal static class BerthExecutable
{
    public static ChildProcess Start(IEnumerable<string> arguments)
    {
        var self = Environment.ProcessPath ?? throw new InvalidOperationException("The path of this process is unknown.");
        return Path.GetFileNameWithoutExtension(self) == "dotnet"
            ? new ChildProcess(self, [Path.Combine(AppContext.BaseDirectory, "Berth.Cli.dll"), .. arguments])
            : new ChildProcess(self, arguments);
    }
}
