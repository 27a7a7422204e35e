using System.Text;
using Berth.Cli.Tcp;
using Berth.Connections;
using Berth.Messages;
using Berth.Tests.Messages;
using Berth.Tests.Tcp;

namespace Berth.Tests.Cli;

/// <summary>
/// The handler of <c>berth serve --typed</c> over loopback: frames laid out as <c>berth-load --message-id 1</c> lays them
/// out come back byte for byte, and a body the contract rejects closes only its sender, with the named reason in the
/// log, while a witness keeps echoing. Its allocation per message is in <see cref="TypedEchoAllocationTests"/>.
/// </summary>
public sealed class TypedServeTests
{
    [Theory]
    [InlineData(64)]
    [InlineData(1024)]
    public async Task Typed_frames_come_back_byte_for_byte(int size)
    {
        await using var server = EchoTests.Start(new BerthServerOptions(), TypedEchoRouter.Create());
        using var client = new RawClient(server.EndPoint);
        var body = Body(size, sequence: 3);

        client.SendFrame(body);

        Assert.Equal(size, body.Length);
        Assert.Equal(body, client.ReceiveFrame());
    }

    [Fact]
    public async Task A_body_the_contract_rejects_closes_only_its_sender_while_a_witness_keeps_echoing()
    {
        var log = new CapturingLoggerFactory();
        var options = new BerthServerOptions { LoggerFactory = log };
        await using (var server = EchoTests.Start(options, TypedEchoRouter.Create()))
        {
            using var witness = new RawClient(server.EndPoint);
            using var offender = new RawClient(server.EndPoint);
            var echo = Body(64, sequence: 1);
            witness.SendFrame(echo);
            Assert.Equal(echo, witness.ReceiveFrame());

            // The payload announces 55 bytes but is not UTF-8.
            var hostile = Body(64, sequence: 2);
            hostile[^1] = 0xFF;
            offender.SendFrame(hostile);
            witness.SendFrame(echo);
            Assert.Equal(echo, witness.ReceiveFrame());

            await Waits.Until(() => log.Lines.Any(line =>
                line.StartsWith("Warning: ", StringComparison.Ordinal) && line.EndsWith("closed: MalformedMessage, EchoMessage.Payload at offset 4: Malformed", StringComparison.Ordinal)));
            Assert.True(offender.WaitForClose());
            witness.SendFrame(echo);
            Assert.Equal(echo, witness.ReceiveFrame());
            await Waits.Until(() => server.ConnectionCount == 1);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    /// <summary>A body of exactly <paramref name="size"/> bytes in the layout of <c>berth-load --message-id 1</c>: the id, the sequence, an ASCII string filling the rest.</summary>
    internal static byte[] Body(int size, int sequence)
    {
        // Frames of 64 B and 1 KB: a one-byte count fills 64 bytes, a two-byte one 1,024.
        var text = size - 8 - (size - 9 < 0x80 ? 1 : 2);
        var body = MessageBytes.Encode(new EchoMessage { Sequence = sequence, Payload = new Utf8Field(Encoding.ASCII.GetBytes(new string('p', text))) });
        return [.. BitConverter.GetBytes(EchoMessage.MessageId), .. body];
    }
}
