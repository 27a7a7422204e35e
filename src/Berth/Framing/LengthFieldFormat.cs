using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using Berth.Buffers;

namespace Berth.Framing;

/// <summary>
/// The layout of a frame's length field: its width (2 or 4 bytes), byte order, whether the length counts the
/// field itself, and the shortest and largest body a peer may announce.
/// </summary>
public sealed record LengthFieldFormat
{
    /// <summary>The default largest body: 1 MiB.</summary>
    public const int DefaultMaxBodyLength = 1_048_576;

    /// <summary>Creates a format; see the properties for the meaning of each argument.</summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// The width is not 2 or 4, the maximum does not fit the field, or the minimum is negative or above the maximum.
    /// </exception>
    public LengthFieldFormat(
        int fieldWidth = 4,
        Endianness endianness = Endianness.Little,
        bool lengthIncludesHeader = false,
        int maxBodyLength = DefaultMaxBodyLength,
        int minBodyLength = 0)
    {
        if (fieldWidth is not (2 or 4))
        {
            throw new ArgumentOutOfRangeException(nameof(fieldWidth), fieldWidth, "The length field is 2 or 4 bytes wide.");
        }

        var largestField = fieldWidth == 2 ? ushort.MaxValue : int.MaxValue;
        var largestBody = largestField - (lengthIncludesHeader ? fieldWidth : 0);
        if (maxBodyLength < 0 || maxBodyLength > largestBody)
        {
            throw new ArgumentOutOfRangeException(
                nameof(maxBodyLength), maxBodyLength, $"A {fieldWidth}-byte length field can announce bodies of 0 to {largestBody} bytes.");
        }

        if (minBodyLength < 0 || minBodyLength > maxBodyLength)
        {
            throw new ArgumentOutOfRangeException(
                nameof(minBodyLength), minBodyLength, $"The shortest body must be between 0 and the largest, {maxBodyLength} bytes.");
        }

        FieldWidth = fieldWidth;
        MinBodyLength = minBodyLength;
        Endianness = endianness;
        LengthIncludesHeader = lengthIncludesHeader;
        MaxBodyLength = maxBodyLength;
    }

    /// <summary>Berth's own frames: u32 little-endian body length, at most 1 MiB.</summary>
    public static LengthFieldFormat Berth { get; } = new();

    /// <summary>FastPortSharp's frames: u16 little-endian length that counts its own two bytes; empty bodies allowed.</summary>
    public static LengthFieldFormat FastPortSharp { get; } =
        new(2, Endianness.Little, lengthIncludesHeader: true, maxBodyLength: ushort.MaxValue - 2);

    /// <summary>
    /// Telepathy's frames: u32 big-endian body length, at least 1 byte (a Telepathy peer treats an empty frame as an
    /// attack and disconnects) and at most 1 MiB here.
    /// </summary>
    public static LengthFieldFormat Telepathy { get; } = new(4, Endianness.Big, minBodyLength: 1);

    /// <summary>Width of the length field in bytes: 2 or 4.</summary>
    public int FieldWidth { get; }

    /// <summary>Byte order of the length field.</summary>
    public Endianness Endianness { get; }

    /// <summary>Whether the announced length counts the length field as well as the body.</summary>
    public bool LengthIncludesHeader { get; }

    /// <summary>The largest body a frame may carry; a peer announcing more is refused.</summary>
    public int MaxBodyLength { get; }

    /// <summary>The shortest body a frame may carry; a peer announcing less sent a malformed frame.</summary>
    public int MinBodyLength { get; }

    /// <summary>Bytes before the body.</summary>
    public int HeaderLength => FieldWidth;

    /// <summary>The same layout with another maximum body length.</summary>
    public LengthFieldFormat WithMaxBodyLength(int maxBodyLength) =>
        new(FieldWidth, Endianness, LengthIncludesHeader, maxBodyLength, Math.Min(MinBodyLength, maxBodyLength));

    /// <summary>Writes the header for a body of <paramref name="bodyLength"/> bytes into the first <see cref="HeaderLength"/> bytes of <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The body is shorter than <see cref="MinBodyLength"/> or longer than <see cref="MaxBodyLength"/>.</exception>
    public void WriteHeader(Span<byte> destination, int bodyLength)
    {
        CheckBodyLength(bodyLength, nameof(bodyLength));
        var announced = Announced(bodyLength);
        switch (FieldWidth, Endianness)
        {
            case (2, Endianness.Little):
                BinaryPrimitives.WriteUInt16LittleEndian(destination, (ushort)announced);
                break;
            case (2, Endianness.Big):
                BinaryPrimitives.WriteUInt16BigEndian(destination, (ushort)announced);
                break;
            case (_, Endianness.Little):
                BinaryPrimitives.WriteUInt32LittleEndian(destination, announced);
                break;
            default:
                BinaryPrimitives.WriteUInt32BigEndian(destination, announced);
                break;
        }
    }

    /// <summary>
    /// The one check of a body's length on the send side: every sender (<see cref="WriteHeader"/>,
    /// <see cref="FrameEncoder"/>, <see cref="PacketWriter.BackfillLength"/>, a connection's send queue) calls it, so a
    /// body outside <see cref="MinBodyLength"/>..<see cref="MaxBodyLength"/> always fails the same way.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The body is shorter than <see cref="MinBodyLength"/> or longer than <see cref="MaxBodyLength"/>.</exception>
    // Once per sent frame; a NativeAOT build, having no profile, inlines it only if told (the throw stays out of line).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void CheckBodyLength(long bodyLength, string paramName)
    {
        if (bodyLength < MinBodyLength || bodyLength > MaxBodyLength)
        {
            ThrowBodyLengthOutOfRange(bodyLength, paramName);
        }
    }

    /// <summary>Reads the announced field value from a complete header (before subtracting the header, if counted).</summary>
    // Read once per received frame; without it a NativeAOT build calls it, having no profile to inline by.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal uint ReadAnnounced(ReadOnlySpan<byte> header) => (FieldWidth, Endianness) switch
    {
        (2, Endianness.Little) => BinaryPrimitives.ReadUInt16LittleEndian(header),
        (2, Endianness.Big) => BinaryPrimitives.ReadUInt16BigEndian(header),
        (_, Endianness.Little) => BinaryPrimitives.ReadUInt32LittleEndian(header),
        _ => BinaryPrimitives.ReadUInt32BigEndian(header),
    };

    /// <summary>The field value a header announces for a body of <paramref name="bodyLength"/> bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal uint Announced(int bodyLength) => (uint)bodyLength + LengthBias;

    /// <summary>
    /// What the field counts beyond the body: the header itself when <see cref="LengthIncludesHeader"/>, else nothing.
    /// The one place every reader and writer of the field takes it from: <see cref="Announced"/> adds it, the
    /// <see cref="FrameDecoder"/> and the receive loop's count of bytes still missing subtract it.
    /// </summary>
    internal uint LengthBias => LengthIncludesHeader ? (uint)FieldWidth : 0u;

    [DoesNotReturn]
    private void ThrowBodyLengthOutOfRange(long bodyLength, string paramName) =>
        throw new ArgumentOutOfRangeException(
            paramName, bodyLength, $"The frame body is {bodyLength} bytes; the format allows {MinBodyLength} to {MaxBodyLength}.");
}
