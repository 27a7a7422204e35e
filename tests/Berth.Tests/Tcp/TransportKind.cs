using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using Berth.Connections;

namespace Berth.Tests.Tcp;

/// <summary>The byte streams a connection runs on, each of which the transport tests run over.</summary>
public enum TransportKind
{
    /// <summary>Berth's own epoll event loops: plain TCP under <see cref="HandlerScheduling.Inline"/> on Linux.</summary>
    Epoll,

    /// <summary>The runtime's socket engine, what Windows and macOS run: plain TCP under <see cref="HandlerScheduling.ThreadPool"/>.</summary>
    RuntimeSocket,

    /// <summary>TLS through SslStream over the runtime's socket engine.</summary>
    Tls,
}

/// <summary>Sets servers, clients and raw peers up for a <see cref="TransportKind"/>.</summary>
public static class Transports
{
    private static readonly Lazy<X509Certificate2> Certificate = new(TlsTests.SelfSignedCertificate);

    /// <summary>Every transport, as theory data.</summary>
    public static TheoryData<TransportKind> All => new(Enum.GetValues<TransportKind>());

    /// <summary>Every transport under each of <paramref name="values"/>, as theory data.</summary>
    public static TheoryData<int, TransportKind> Each(params int[] values)
    {
        var data = new TheoryData<int, TransportKind>();
        foreach (var kind in Enum.GetValues<TransportKind>())
        {
            foreach (var value in values)
            {
                data.Add(value, kind);
            }
        }

        return data;
    }

    /// <summary>Makes <paramref name="options"/> serve <paramref name="kind"/>; returns them.</summary>
    public static BerthServerOptions On(this BerthServerOptions options, TransportKind kind)
    {
        options.HandlerScheduling = kind == TransportKind.Epoll ? HandlerScheduling.Inline : HandlerScheduling.ThreadPool;
        options.Tls = kind == TransportKind.Tls ? new SslServerAuthenticationOptions { ServerCertificate = Certificate.Value } : null;
        return options;
    }

    /// <summary>Makes <paramref name="options"/> connect over <paramref name="kind"/>; returns them.</summary>
    public static BerthClientOptions On(this BerthClientOptions options, TransportKind kind)
    {
        options.HandlerScheduling = kind == TransportKind.Epoll ? HandlerScheduling.Inline : HandlerScheduling.ThreadPool;
        options.Tls = kind == TransportKind.Tls ? ClientTls() : null;
        return options;
    }

    /// <summary>What a client accepts: exactly the certificate these tests' servers present.</summary>
    public static SslClientAuthenticationOptions ClientTls() => new()
    {
        TargetHost = "localhost",
        RemoteCertificateValidationCallback = (_, cert, _, _) => cert?.GetCertHashString() == Certificate.Value.GetCertHashString(),
    };
}
