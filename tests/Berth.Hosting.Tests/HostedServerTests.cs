using System.Buffers.Binary;
using System.Diagnostics.Metrics;
using System.Net.Sockets;
using Berth.Hosting;
using Berth.Connections;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace Berth.Hosting.Tests;

public sealed class HostedServerTests
{
    [Fact]
    public async Task TheHostStartsTheServerAndStopsItGracefullyAndItsMeterFactoryCountsTheFrames()
    {
        var builder = Host.CreateApplicationBuilder();
        builder.Services.AddBerthServer<EchoHandler>(options => options.MaxConnections = 10);
        using var host = builder.Build();
        var framesReceived = 0L;
        using var listener = new MeterListener();
        var hostMeters = host.Services.GetRequiredService<IMeterFactory>();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (ReferenceEquals(instrument.Meter.Scope, hostMeters) && instrument.Name == "berth.frames.received")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref framesReceived, value));
        listener.Start();
        await host.StartAsync().WaitAsync(TimeSpan.FromSeconds(30));
        var server = host.Services.GetRequiredService<BerthServer>();

        using (var socket = new Socket(SocketType.Stream, ProtocolType.Tcp))
        {
            socket.ReceiveTimeout = 30_000;
            await socket.ConnectAsync(server.EndPoint);
            var frame = new byte[] { 3, 0, 0, 0, 1, 2, 3 };
            socket.Send(frame);
            var reply = new byte[frame.Length];
            var received = 0;
            while (received < reply.Length)
            {
                received += socket.Receive(reply.AsSpan(received));
            }

            Assert.Equal(frame, reply);
            Assert.Equal(3u, BinaryPrimitives.ReadUInt32LittleEndian(reply));
        }

        await host.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(0, server.BufferPool.Outstanding);
        Assert.Equal(1, Interlocked.Read(ref framesReceived));
    }
}
