using System.Net;
using Berth.Proxy;

namespace Berth.Cli.Tcp;

/// <summary>What <c>berth serve --proxy-protocol</c> was asked for, checked before the server starts.</summary>
internal static class ProxyProtocolSettings
{
    /// <summary>The listener's PROXY options, or null when <paramref name="enabled"/> is off and nothing else was given.</summary>
    public static ProxyProtocolOptions? From(bool enabled, string[] trustedProxies, bool trustAny, double headerTimeoutSeconds)
    {
        if (!enabled)
        {
            return trustedProxies.Length > 0 || trustAny
                ? throw new UsageException("options '--trusted-proxy' and '--trust-any-proxy-unsafe' need '--proxy-protocol'")
                : null;
        }

        if (trustedProxies.Length == 0 && !trustAny)
        {
            throw new UsageException(
                "option '--proxy-protocol' needs '--trusted-proxy CIDR' (repeatable), or the unsafe '--trust-any-proxy-unsafe' that lets any client claim any address");
        }

        var options = new ProxyProtocolOptions { TrustEveryAddress = trustAny, HeaderTimeout = TimeSpan.FromSeconds(headerTimeoutSeconds) };
        foreach (var text in trustedProxies)
        {
            options.TrustedProxies.Add(IPNetwork.TryParse(text, out var network)
                ? network
                : throw new UsageException($"option '--trusted-proxy' must be an address range like 10.0.0.0/8 or 2001:db8::/32, not '{text}'"));
        }

        return options;
    }
}
