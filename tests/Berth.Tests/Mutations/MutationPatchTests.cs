using System.Diagnostics;
using Berth.Cli.Compare;
using Berth.Tests.Tcp;

namespace Berth.Tests.Mutations;

/// <summary>
/// scripts/mutations.sh shows that tests catch what each patch under tests/mutations/ removes; a patch that no longer
/// applies proves nothing, and the code moves under the patches. So every patch must apply to the checkout these tests
/// were built from: git is asked whether it would (nothing is built or changed), and a patch that stops applying fails
/// here, in every test run, rather than only when the mutations are next run.
/// </summary>
public sealed class MutationPatchTests
{
    private const string PatchFolder = "tests/mutations";

    public static TheoryData<string> Patches()
    {
        var patches = new TheoryData<string>();
        var folder = Path.Combine(SourceCheckout.FindRoot(), PatchFolder);
        foreach (var file in Directory.GetFiles(folder, "*.patch").Order(StringComparer.Ordinal))
        {
            patches.Add(Path.GetFileName(file));
        }

        return patches;
    }

    [Theory]
    [MemberData(nameof(Patches))]
    public async Task Every_mutation_patch_applies_to_the_current_code(string patch)
    {
        var root = SourceCheckout.FindRoot();
        // A worktree's .git is a file, a clone's a directory. Without either there is no code to check the patch
        // against: that fails rather than skips, since CI runs from a clone and a skip would hide a broken patch.
        Assert.True(
            Path.Exists(Path.Combine(root, ".git")),
            $"{root} is not a git checkout (no .git), so {PatchFolder}/{patch} cannot be checked with git apply --check; run the tests from a clone");

        var start = new ProcessStartInfo("git")
        {
            WorkingDirectory = root,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add("apply");
        start.ArgumentList.Add("--check");
        start.ArgumentList.Add($"{PatchFolder}/{patch}");
        using var git = Process.Start(start)!;
        var output = git.StandardOutput.ReadToEndAsync();
        var error = git.StandardError.ReadToEndAsync();
        await git.WaitForExitAsync().Within();

        Assert.True(
            git.ExitCode == 0,
            $"{PatchFolder}/{patch} no longer applies to the code: regenerate it so it removes the same behaviour where that now is. git apply --check said:\n{await error}{await output}");
    }
}
