using System.Net;
using Berth.Proxy;

namespace Berth.Tests.Proxy;

public class ProxyAllowlistTests
{
    [Theory]
    [InlineData("10.0.0.0/8", "10.0.0.1", true)]
    [InlineData("10.0.0.0/8", "10.255.255.255", true)]
    [InlineData("10.0.0.0/8", "11.0.0.0", false)]
    [InlineData("10.0.0.0/8", "::ffff:10.1.2.3", true)]
    [InlineData("10.0.0.0/8", "::ffff:11.1.2.3", false)]
    [InlineData("192.168.1.7/32", "192.168.1.7", true)]
    [InlineData("192.168.1.7/32", "192.168.1.8", false)]
    [InlineData("0.0.0.0/0", "203.0.113.9", true)]
    [InlineData("0.0.0.0/0", "2001:db8::1", false)]
    [InlineData("2001:db8::/32", "2001:db8:ffff::1", true)]
    [InlineData("2001:db8::/32", "2001:db9::1", false)]
    [InlineData("2001:db8::/32", "10.0.0.1", false)]
    [InlineData("::1/128", "::1", true)]
    [InlineData("::/0", "fe80::1", true)]
    [InlineData("172.16.0.0/12", "172.31.255.1", true)]
    [InlineData("172.16.0.0/12", "172.32.0.1", false)]
    public void A_peer_is_trusted_only_inside_a_range(string range, string peer, bool trusted) =>
        Assert.Equal(trusted, ProxyAllowlist.Of([IPNetwork.Parse(range)]).Contains(IPAddress.Parse(peer)));

    [Fact]
    public void Every_range_is_tried_and_nothing_is_trusted_by_default()
    {
        var allowlist = ProxyAllowlist.Of([IPNetwork.Parse("10.0.0.0/8"), IPNetwork.Parse("2001:db8::/32")]);
        Assert.True(allowlist.Contains(IPAddress.Parse("2001:db8::5")));
        Assert.True(allowlist.Contains(IPAddress.Parse("10.9.9.9")));
        Assert.False(ProxyAllowlist.Of([]).Contains(IPAddress.Loopback));
        Assert.False(allowlist.Contains(null));
        Assert.True(ProxyAllowlist.Everyone.Contains(IPAddress.Parse("198.51.100.1")));
    }

    [Fact]
    public void Matching_allocates_nothing()
    {
        var allowlist = ProxyAllowlist.Of([IPNetwork.Parse("10.0.0.0/8"), IPNetwork.Parse("2001:db8::/32")]);
        IPAddress[] peers = [IPAddress.Parse("10.0.0.1"), IPAddress.Parse("::ffff:10.0.0.1"), IPAddress.Parse("2001:db8::1"), IPAddress.Parse("8.8.8.8")];
        long Run(int times)
        {
            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var i = 0; i < times; i++)
            {
                foreach (var peer in peers)
                {
                    allowlist.Contains(peer);
                }
            }

            return GC.GetAllocatedBytesForCurrentThread() - before;
        }

        // N against 10N: a cost per call grows tenfold; what the runtime spends once (tiering) does not.
        Run(10);
        var n = Run(100);
        var tenN = Run(1000);
        Assert.True(tenN < 1000 && tenN <= n + 64, $"{n} bytes over 100 runs, {tenN} over 1,000");
    }

    [Fact]
    public void Options_without_a_trusted_proxy_are_refused_unless_every_address_is_trusted_explicitly()
    {
        Assert.Throws<ArgumentException>(() => new ProxyProtocolOptions().Validate());
        new ProxyProtocolOptions { TrustEveryAddress = true }.Validate();
        new ProxyProtocolOptions { TrustedProxies = { IPNetwork.Parse("10.0.0.0/8") } }.Validate();
        Assert.Throws<ArgumentOutOfRangeException>(() => new ProxyProtocolOptions { TrustEveryAddress = true, MaxHeaderLength = 100 }.Validate());
    }
}
