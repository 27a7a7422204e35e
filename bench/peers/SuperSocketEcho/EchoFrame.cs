namespace Berth.SuperSocketEcho;

/// <summary>One whole frame as it came in, length prefix included, to be sent back unchanged.</summary>
internal sealed class EchoFrame(byte[] bytes)
{
    public byte[] Bytes { get; } = bytes;
}
