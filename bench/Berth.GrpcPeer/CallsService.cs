using Berth.Benchmarks.Messages.Protobuf;
using Grpc.Core;

namespace Berth.Benchmarks.Calls;

/// <summary>Answers every Position with the same position one tick later, as Berth.RequestServer does.</summary>
internal sealed class CallsService : Messages.Protobuf.Calls.CallsBase
{
    public override Task<Position> Echo(Position request, ServerCallContext context) =>
        Task.FromResult(new Position { Id = request.Id, X = request.X, Y = request.Y, Z = request.Z, Tick = request.Tick + 1 });
}
