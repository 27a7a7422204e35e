using Berth.Framing;

namespace Berth.Buffers;

/// <summary>
/// Room for a length field that <see cref="PacketWriter.ReserveLength"/> left before a body; the writer fills it in
/// when <see cref="PacketWriter.BackfillLength"/> is called after the body is written.
/// </summary>
public readonly ref struct LengthReservation
{
    internal LengthReservation(Span<byte> header, long bodyStart, LengthFieldFormat format)
    {
        Header = header;
        BodyStart = bodyStart;
        Format = format;
    }

    internal Span<byte> Header { get; }

    internal long BodyStart { get; }

    internal LengthFieldFormat Format { get; }
}
