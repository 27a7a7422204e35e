namespace Berth.Cli.Aot;

/// <summary>
/// One published build of berth that the comparison starts: its name, its <c>berth</c> executable, and whether it is
/// a NativeAOT build (judged against the targets) or a JIT build (an anchor).
/// </summary>
internal sealed record AotBuild(string Name, string Executable, bool IsNative)
{
    public const string Native = "NativeAOT";
    public const string Jit = "JIT";
    public const string ReadyToRun = "JIT, ReadyToRun";

    /// <summary>The executable under the assembly's name, which the publish also copies to berth (Berth.Cli.csproj).</summary>
    private const string LauncherUnderAssemblyName = "Berth.Cli";

    /// <summary>
    /// What the build puts on disk to run: every file of its folder but symbols, documentation and the second copy of
    /// the executable. A JIT build also needs the shared .NET runtime, which is not counted.
    /// </summary>
    public long SizeBytes() =>
        new DirectoryInfo(Path.GetDirectoryName(Path.GetFullPath(Executable))!)
            .EnumerateFiles()
            .Where(f => f.Extension is not (".pdb" or ".dbg" or ".xml") && f.Name != LauncherUnderAssemblyName)
            .Sum(f => f.Length);
}
