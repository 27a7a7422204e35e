using System.Buffers;
using SuperSocket.ProtoBase;

namespace Berth.SuperSocketEcho;

/// <summary>
/// Berth's default frames on SuperSocket's fixed-header filter, as its custom-protocol guide builds one: a 4-byte
/// little-endian body length, then the body. A length over 1 MiB fails the filter, which closes the connection.
/// </summary>
internal sealed class EchoFrameFilter() : FixedHeaderPipelineFilter<EchoFrame>(HeaderLength)
{
    public const int HeaderLength = 4;
    public const int MaxBodyLength = 1 << 20;

    protected override int GetBodyLengthFromHeader(ref ReadOnlySequence<byte> buffer)
    {
        var reader = new SequenceReader<byte>(buffer);
        reader.TryReadLittleEndian(out int length);
        return (uint)length > MaxBodyLength ? -1 : length;
    }

    protected override EchoFrame DecodePackage(ref ReadOnlySequence<byte> buffer) => new(buffer.ToArray());
}
