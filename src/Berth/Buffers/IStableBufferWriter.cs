using System.Buffers;

namespace Berth.Buffers;

/// <summary>
/// A buffer writer whose advanced memory never moves until the writer is reset, so bytes already written
/// (a frame's length field, for one) can be filled in later. <see cref="PacketWriter.ReserveLength"/> relies on it
/// when a body outgrows the span it started in.
/// </summary>
public interface IStableBufferWriter : IBufferWriter<byte>;
