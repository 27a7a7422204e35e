using Berth.Buffers;

namespace Berth.Connections;

/// <summary>
/// Writes one frame body into pooled send memory. The length field is reserved before the call and backfilled after
/// it, so the body is serialized exactly once; <paramref name="state"/> lets callers pass data without a closure.
/// </summary>
public delegate void FrameWriter<in TState>(ref PacketWriter writer, TState state);
