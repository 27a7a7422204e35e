using System.Buffers;
using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Berth.Connections;

namespace Berth.Tests.Tcp;

public sealed class TlsTests
{
    [Fact]
    public async Task FramesRoundTripOverTlsWithTheSameApi()
    {
        using var certificate = SelfSignedCertificate();
        var serverOptions = new BerthServerOptions
        {
            Tls = new SslServerAuthenticationOptions { ServerCertificate = certificate },
        };
        var replies = new TaskCompletionSource<byte[]>(TaskCreationOptions.RunContinuationsAsynchronously);
        var clientOptions = new BerthClientOptions
        {
            Tls = new SslClientAuthenticationOptions
            {
                TargetHost = "localhost",
                RemoteCertificateValidationCallback = (_, cert, _, _) => cert?.GetCertHashString() == certificate.GetCertHashString(),
            },
        };
        await using (var server = EchoTests.Start(serverOptions))
        {
            clientOptions.Port = server.EndPoint.Port;
            await using var client = new BerthClient(clientOptions, new FirstReply(replies));
            var connection = await client.ConnectAsync();
            var body = EchoTests.RandomBody(100_000, 3);
            Assert.True(connection.TrySend(body));
            Assert.Equal(body, await replies.Task.Within());
        }

        Assert.Equal(0, serverOptions.BufferPool.Outstanding);
        Assert.Equal(0, clientOptions.BufferPool.Outstanding);
    }

    [Fact]
    public async Task APlainTextPeerFailsTheHandshakeWithTlsFailed()
    {
        using var certificate = SelfSignedCertificate();
        var handler = new RecordingHandler();
        var options = new BerthServerOptions { Tls = new SslServerAuthenticationOptions { ServerCertificate = certificate } };
        await using var server = EchoTests.Start(options, handler);
        using var plain = new RawClient(server.EndPoint);
        plain.SendFrame(new byte[64]);
        Assert.True(plain.WaitForClose());
        await Waits.Until(() => !handler.Disconnects.IsEmpty);
        Assert.Equal(DisconnectReason.TlsFailed, Assert.Single(handler.Disconnects).Info.Reason);
        Assert.Empty(handler.Connections);
    }

    internal static X509Certificate2 SelfSignedCertificate()
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        request.CertificateExtensions.Add(names.Build());
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddHours(1));
        return X509CertificateLoader.LoadPkcs12(certificate.Export(X509ContentType.Pfx), null);
    }

    private sealed class FirstReply(TaskCompletionSource<byte[]> reply) : ConnectionHandler
    {
        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) => reply.TrySetResult(body.ToArray());
    }
}
