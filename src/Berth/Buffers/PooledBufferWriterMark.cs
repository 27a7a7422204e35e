namespace Berth.Buffers;

/// <summary>A position in a <see cref="PooledBufferWriter"/> to roll back to: arrays in use, the last one's fill, bytes written.</summary>
internal readonly record struct PooledBufferWriterMark(int Segments, int LastCount, long Length);
