using Berth.Generators;
using Berth.Messages;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Testing;

namespace Berth.Generators.Tests;

/// <summary>
/// Runs the generator over a source and checks the diagnostics it reports, compiling against the running runtime's
/// own assemblies and Berth (no reference pack to fetch).
/// </summary>
internal sealed class GeneratorTest : CSharpSourceGeneratorTest<MessageGenerator, DefaultVerifier>
{
    private static readonly MetadataReference[] RuntimeReferences = ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!)
        .Split(Path.PathSeparator)
        .Where(path => Path.GetFileName(path).StartsWith("System.", StringComparison.Ordinal) || Path.GetFileName(path) is "mscorlib.dll" or "netstandard.dll")
        .Append(typeof(MessageAttribute).Assembly.Location)
        .Select(path => (MetadataReference)MetadataReference.CreateFromFile(path))
        .ToArray();

    public GeneratorTest(string source, params DiagnosticResult[] expected)
    {
        TestState.Sources.Add(source);
        TestState.ExpectedDiagnostics.AddRange(expected);
        TestBehaviors |= TestBehaviors.SkipGeneratedSourcesCheck;
        ReferenceAssemblies = new ReferenceAssemblies("net10.0");
        TestState.AdditionalReferences.AddRange(RuntimeReferences);
    }

    protected override ParseOptions CreateParseOptions() => new CSharpParseOptions(LanguageVersion.Latest);

    protected override CompilationOptions CreateCompilationOptions() =>
        ((CSharpCompilationOptions)base.CreateCompilationOptions()).WithNullableContextOptions(NullableContextOptions.Enable);

    /// <summary>Expects the diagnostic <paramref name="id"/> at the source's markup location <paramref name="marker"/>.</summary>
    public static DiagnosticResult Expect(string id, int marker) =>
        new DiagnosticResult(id, DiagnosticSeverity.Error).WithLocation(marker);

    public static Task Run(string source, params DiagnosticResult[] expected) => new GeneratorTest(source, expected).RunAsync();
}
