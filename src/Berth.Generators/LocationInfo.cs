using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Berth.Generators;

/// <summary>A source location as plain values, so models that carry one stay cacheable.</summary>
internal sealed record LocationInfo(string FilePath, TextSpan Span, LinePositionSpan LineSpan)
{
    public static LocationInfo? From(Location? location) =>
        location?.SourceTree is null ? null : new LocationInfo(location.SourceTree.FilePath, location.SourceSpan, location.GetLineSpan().Span);

    public Location ToLocation() => Location.Create(FilePath, Span, LineSpan);
}
