using System.Buffers;
using System.Buffers.Binary;
using Berth.Buffers;
using Berth.Framing;

namespace Berth.Fuzz;

/// <summary>A length-field format with its decoder and encoder, and the values the oracle needs to judge them.</summary>
internal sealed class FrameVariant
{
    public FrameVariant(string name, LengthFieldFormat format)
    {
        Name = name;
        Format = format;
        Decoder = new FrameDecoder(format);
        Encoder = new FrameEncoder(format);
        HeaderLength = format.HeaderLength;
        Bias = format.LengthIncludesHeader ? (uint)format.FieldWidth : 0;
        MinBodyLength = ProbeMinBodyLength();
    }

    public string Name { get; }

    public LengthFieldFormat Format { get; }

    public FrameDecoder Decoder { get; }

    public FrameEncoder Encoder { get; }

    public int HeaderLength { get; }

    /// <summary>What the length field adds to the body length: the header's own width when it counts itself.</summary>
    public uint Bias { get; }

    /// <summary>
    /// The shortest body the decoder accepts, found by asking it: a format may refuse bodies shorter than its real
    /// peer's minimum as malformed. The oracle then holds the decoder to one threshold for every input.
    /// </summary>
    public int MinBodyLength { get; }

    /// <summary>Every length-field layout with several maximums, and the three presets.</summary>
    public static FrameVariant[] All()
    {
        var variants = new List<FrameVariant>
        {
            new("preset Berth", LengthFieldFormat.Berth),
            new("preset FastPortSharp", LengthFieldFormat.FastPortSharp),
            new("preset Telepathy", LengthFieldFormat.Telepathy),
        };
        foreach (var width in new[] { 2, 4 })
        {
            foreach (var endianness in new[] { Endianness.Little, Endianness.Big })
            {
                foreach (var includesHeader in new[] { false, true })
                {
                    var largest = (width == 2 ? ushort.MaxValue : int.MaxValue) - (includesHeader ? width : 0);
                    foreach (var max in new[] { 0, 1, 7, 64, 300, largest })
                    {
                        var format = new LengthFieldFormat(width, endianness, includesHeader, max);
                        variants.Add(new($"u{width * 8} {endianness} {(includesHeader ? "counts header" : "body only")} max {max}", format));
                    }
                }
            }
        }

        return [.. variants];
    }

    /// <summary>Writes the raw length field <paramref name="announced"/>, which may be any value, not only a valid one.</summary>
    public void WriteAnnounced(Span<byte> destination, uint announced)
    {
        var little = Format.Endianness == Endianness.Little;
        if (HeaderLength == 2)
        {
            if (little)
            {
                BinaryPrimitives.WriteUInt16LittleEndian(destination, (ushort)announced);
            }
            else
            {
                BinaryPrimitives.WriteUInt16BigEndian(destination, (ushort)announced);
            }
        }
        else if (little)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(destination, announced);
        }
        else
        {
            BinaryPrimitives.WriteUInt32BigEndian(destination, announced);
        }
    }

    /// <summary>Reads the raw length field, written independently of the library's own reader.</summary>
    public uint ReadAnnounced(ReadOnlySpan<byte> header) => (HeaderLength, Format.Endianness) switch
    {
        (2, Endianness.Little) => BinaryPrimitives.ReadUInt16LittleEndian(header),
        (2, _) => BinaryPrimitives.ReadUInt16BigEndian(header),
        (_, Endianness.Little) => BinaryPrimitives.ReadUInt32LittleEndian(header),
        _ => BinaryPrimitives.ReadUInt32BigEndian(header),
    };

    private int ProbeMinBodyLength()
    {
        var frame = new byte[HeaderLength + 16];
        for (var length = 0; length <= Math.Min(16, Format.MaxBodyLength); length++)
        {
            WriteAnnounced(frame, (uint)length + Bias);
            var buffer = new ReadOnlySequence<byte>(frame, 0, HeaderLength + length);
            if (Decoder.TryReadFrame(ref buffer, out _) == FrameReadResult.Frame)
            {
                return length;
            }
        }

        throw new InvalidOperationException($"{Name}: the decoder accepts no body of 0 to 16 bytes.");
    }
}
