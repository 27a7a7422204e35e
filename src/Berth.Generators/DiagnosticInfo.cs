using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;

namespace Berth.Generators;

/// <summary>A diagnostic kept as plain values (no syntax tree or symbol), so the pipeline can cache it.</summary>
internal sealed record DiagnosticInfo(string Id, LocationInfo? Location, EquatableArray<string> Arguments)
{
    public static DiagnosticInfo Create(DiagnosticDescriptor descriptor, Location? location, params object[] arguments) =>
        new(descriptor.Id, LocationInfo.From(location), new EquatableArray<string>(arguments.Select(a => a.ToString() ?? string.Empty).ToImmutableArray()));

    public Diagnostic ToDiagnostic() =>
        Diagnostic.Create(Diagnostics.ById(Id), Location?.ToLocation() ?? Microsoft.CodeAnalysis.Location.None, Arguments.Items.Cast<object>().ToArray());
}
