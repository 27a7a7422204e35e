using Berth.Messages;

namespace Berth.Benchmarks.Messages;

/// <summary>
/// The five-field message as a Berth contract. Its own file so the request/response comparison against gRPC
/// (bench/Berth.RequestServer, bench/Berth.CallLoad) compiles the very same contract.
/// </summary>
[Message(1)]
public partial struct Position
{
    [Field(0)] public int Id;
    [Field(1)] public float X;
    [Field(2)] public float Y;
    [Field(3)] public float Z;
    [Field(4)] public long Tick;
}
