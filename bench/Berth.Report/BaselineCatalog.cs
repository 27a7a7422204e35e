using System.Reflection;
using BenchmarkDotNet.Attributes;

namespace Berth.Report;

/// <summary>
/// Which method of each benchmark class is its baseline, and the order methods are declared in,
/// read from the benchmark assembly because the JSON export records neither.
/// </summary>
internal sealed class BaselineCatalog
{
    private readonly Dictionary<string, Type> _types;

    public BaselineCatalog(Assembly benchmarks) =>
        _types = benchmarks.GetTypes()
            .Where(t => t.FullName is not null)
            .ToDictionary(t => t.FullName!.Replace('+', '.'), StringComparer.Ordinal);

    public string? BaselineOf(string fullType) =>
        Methods(fullType).Where(m => m.Attribute.Baseline).Select(m => m.Method.Name).FirstOrDefault();

    public int DeclarationOrder(string fullType, string method)
    {
        var index = Methods(fullType).Select(m => m.Method.Name).ToList().IndexOf(method);
        return index < 0 ? int.MaxValue : index;
    }

    private IEnumerable<(MethodInfo Method, BenchmarkAttribute Attribute)> Methods(string fullType) =>
        _types.TryGetValue(fullType, out var type)
            ? type.GetMethods(BindingFlags.Public | BindingFlags.Instance)
                .Select(m => (Method: m, Attribute: m.GetCustomAttribute<BenchmarkAttribute>()))
                .Where(m => m.Attribute is not null)
                .OrderBy(m => m.Attribute!.SourceCodeLineNumber)
                .Select(m => (m.Method, m.Attribute!))
            : [];
}
