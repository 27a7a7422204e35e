namespace Berth.Tests.Tcp.Network;

/// <summary>
/// Two network namespaces joined by a veth pair, 10.213.N.1 (server side) and 10.213.N.2 (client side), made for one
/// test and removed when it ends, also when it fails. Nothing is added to the host's own namespace.
/// </summary>
internal sealed class VethLink : IDisposable
{
    private static int s_next;

    private VethLink(int n)
    {
        var tag = $"{Environment.ProcessId % 10_000}x{n}";
        ServerNamespace = $"berth-s-{tag}";
        ClientNamespace = $"berth-c-{tag}";
        ServerDevice = $"bs{tag}";
        ClientDevice = $"bc{tag}";
        ServerAddress = $"10.213.{n}.1";
    }

    public string ServerNamespace { get; }

    public string ClientNamespace { get; }

    public string ServerDevice { get; }

    public string ClientDevice { get; }

    public string ServerAddress { get; }

    public static VethLink Create()
    {
        var n = Interlocked.Increment(ref s_next) % 250;
        var link = new VethLink(n);
        try
        {
            Ip.MustRun($"netns add {link.ServerNamespace}");
            Ip.MustRun($"netns add {link.ClientNamespace}");
            Ip.MustRun($"link add {link.ServerDevice} netns {link.ServerNamespace} type veth peer name {link.ClientDevice} netns {link.ClientNamespace}");
            Ip.MustRun($"-n {link.ServerNamespace} addr add {link.ServerAddress}/24 dev {link.ServerDevice}");
            Ip.MustRun($"-n {link.ClientNamespace} addr add 10.213.{n}.2/24 dev {link.ClientDevice}");
            foreach (var (ns, device) in new[] { (link.ServerNamespace, link.ServerDevice), (link.ClientNamespace, link.ClientDevice) })
            {
                Ip.MustRun($"-n {ns} link set lo up");
                Ip.MustRun($"-n {ns} link set {device} up");
            }

            return link;
        }
        catch
        {
            link.Dispose();
            throw;
        }
    }

    /// <summary>Takes the server's end of the link down: from then on nothing crosses, in either direction.</summary>
    public void Cut() => Ip.MustRun($"-n {ServerNamespace} link set {ServerDevice} down");

    public void Restore() => Ip.MustRun($"-n {ServerNamespace} link set {ServerDevice} up");

    /// <summary>Deleting a namespace removes its end of the pair, and with it the other end.</summary>
    public void Dispose()
    {
        Ip.Run($"netns del {ServerNamespace}");
        Ip.Run($"netns del {ClientNamespace}");
    }
}
