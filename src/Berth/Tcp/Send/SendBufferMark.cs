namespace Berth.Tcp.Send;

/// <summary>A position in a <see cref="SendBuffer"/> to roll back to.</summary>
internal readonly record struct SendBufferMark(int Segments, int LastCount, long Length, int Frames);
