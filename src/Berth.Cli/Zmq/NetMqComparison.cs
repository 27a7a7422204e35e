using System.Diagnostics.CodeAnalysis;

namespace Berth.Cli.Zmq;

/// <summary>
/// Whether NetMQ runs beside Berth.Zmq in <c>berth zmq bench</c>. NetMQ looks types up by name through reflection,
/// which a NativeAOT build cannot keep, so the native build turns this switch off (Berth.Cli.csproj) and the compiler
/// drops NetMQ together with every call that is reached only when the switch is on.
/// </summary>
internal static class NetMqComparison
{
    private const string Switch = "Berth.Cli.NetMqComparison";

    [FeatureSwitchDefinition(Switch)]
    public static bool IsInBuild => !AppContext.TryGetSwitch(Switch, out var on) || on;
}
