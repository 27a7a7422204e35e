using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using Berth.Proxy;

namespace Berth.Fuzz;

/// <summary>
/// Fuzzes <see cref="ProxyHeaderParser"/>: valid v1 and v2 headers of every family with random addresses and TLVs,
/// mutated or not, followed by stream bytes. Each case parses the input contiguous and cut into segments and holds
/// both to the same answer; a complete header must parse the same without what follows it, every shorter prefix of it
/// must need more, and an unmutated header must be complete at its written length. Nothing may allocate.
/// </summary>
internal sealed class ProxyHeaderTarget : IFuzzTarget
{
    private const int MaxHeaderLength = 512;
    private const int MaxInputLength = 1024;
    private const int MaxEveryPrefixLength = 300;

    private readonly byte[] _input = new byte[MaxInputLength];
    private readonly byte[] _scratch = new byte[MaxHeaderLength];
    private readonly SegmentedSequence _segments = new(MaxInputLength);

    public string Name => "proxy";

    public CaseOutcome Run(ulong caseSeed)
    {
        var random = new FuzzRandom(caseSeed);
        var headerLength = Generate(ref random);
        var length = headerLength;
        var trailing = random.Next(32);
        random.Fill(_input.AsSpan(length, trailing));
        length += trailing;
        var mutated = !random.OneIn(3);
        if (mutated)
        {
            length = InputMutator.Mutate(_input, length, ref random);
        }

        return Check(length, mutated ? -1 : headerLength, ref random);
    }

    public CaseOutcome RunRaw(ReadOnlySpan<byte> raw)
    {
        if (raw.Length < 1)
        {
            return default;
        }

        var random = new FuzzRandom(raw[0]);
        var data = raw[1..];
        var length = Math.Min(data.Length, MaxInputLength);
        data[..length].CopyTo(_input);
        return Check(length, -1, ref random);
    }

    private int Generate(ref FuzzRandom random) => random.Next(4) switch
    {
        0 => GenerateVersion1(ref random),
        1 => GenerateVersion2Local(ref random),
        _ => GenerateVersion2(ref random),
    };

    private int GenerateVersion1(ref FuzzRandom random)
    {
        var line = random.Next(3) switch
        {
            0 => $"PROXY TCP4 {random.Next(256)}.{random.Next(256)}.{random.Next(256)}.{random.Next(256)} 10.0.0.1 {random.Next(65536)} {random.Next(65536)}\r\n",
            1 => $"PROXY TCP6 {Ipv6Text(ref random)} {Ipv6Text(ref random)} {random.Next(65536)} {random.Next(65536)}\r\n",
            _ => random.OneIn(2) ? "PROXY UNKNOWN\r\n" : $"PROXY UNKNOWN {Ipv6Text(ref random)} ::1 1 2\r\n",
        };
        return Encoding.ASCII.GetBytes(line, _input);
    }

    private static string Ipv6Text(ref FuzzRandom random)
    {
        var groups = new string[8];
        for (var i = 0; i < groups.Length; i++)
        {
            groups[i] = random.OneIn(3) ? "0" : random.Next(65536).ToString("x");
        }

        var text = string.Join(':', groups);
        return random.OneIn(2) ? text : System.Net.IPAddress.Parse(text).ToString();
    }

    private int GenerateVersion2Local(ref FuzzRandom random)
    {
        var blockLength = random.Next(40);
        WriteFixed(0x20, (byte)random.Next(256), blockLength);
        random.Fill(_input.AsSpan(16, blockLength));
        return 16 + blockLength;
    }

    private int GenerateVersion2(ref FuzzRandom random)
    {
        var (familyTransport, addresses) = random.Next(4) switch
        {
            0 => ((byte)0x11, 12),
            1 => ((byte)0x21, 36),
            2 => ((byte)0x31, 216),
            _ => ((byte)0x00, 0),
        };
        var at = 16;
        random.Fill(_input.AsSpan(at, addresses));
        at += addresses;
        var tlvs = random.Next(6);
        for (var i = 0; i < tlvs && at < MaxHeaderLength - 64; i++)
        {
            at += WriteTlv(at, ref random);
        }

        WriteFixed(0x21, familyTransport, at - 16);
        return at;
    }

    private int WriteTlv(int at, ref FuzzRandom random)
    {
        byte[] types = [ProxyTlvType.Alpn, ProxyTlvType.Authority, ProxyTlvType.Crc32c, ProxyTlvType.Noop, ProxyTlvType.UniqueId, ProxyTlvType.Ssl, ProxyTlvType.NetworkNamespace, 0xE0];
        var type = types[random.Next(types.Length)];
        var length = type switch
        {
            ProxyTlvType.Crc32c => 4,
            ProxyTlvType.Ssl => 5 + 3 + random.Next(20),
            _ => random.Next(40),
        };
        _input[at] = type;
        BinaryPrimitives.WriteUInt16BigEndian(_input.AsSpan(at + 1), (ushort)length);
        random.Fill(_input.AsSpan(at + 3, length));
        if (type == ProxyTlvType.Ssl)
        {
            _input[at + 3 + 5] = ProxyTlvType.SslVersion;
            BinaryPrimitives.WriteUInt16BigEndian(_input.AsSpan(at + 3 + 6), (ushort)(length - 8));
        }

        return 3 + length;
    }

    private void WriteFixed(byte versionCommand, byte familyTransport, int blockLength)
    {
        ReadOnlySpan<byte> signature = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A];
        signature.CopyTo(_input);
        _input[12] = versionCommand;
        _input[13] = familyTransport;
        BinaryPrimitives.WriteUInt16BigEndian(_input.AsSpan(14), (ushort)blockLength);
    }

    private CaseOutcome Check(int length, int expectedLength, ref FuzzRandom random)
    {
        var data = _input.AsMemory(0, length);
        var segmentation = SegmentedSequence.Pick(ref random);
        var before = GC.GetAllocatedBytesForCurrentThread();
        var failure = CheckInput(data, segmentation, expectedLength, ref random);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        return new CaseOutcome(failure is null ? null : $"{length} bytes: {failure}", allocated, 0);
    }

    private string? CheckInput(ReadOnlyMemory<byte> data, Segmentation segmentation, int expectedLength, ref FuzzRandom random)
    {
        var status = ProxyHeaderParser.TryParse(data.Span, MaxHeaderLength, out var header);
        var headerLength = status == ProxyParseStatus.Complete ? header.Length : 0;
        var segmented = ProxyHeaderParser.TryParse(_segments.Build(data, segmentation, ref random), MaxHeaderLength, _scratch, out var fromSegments);
        if (segmented != status || (status == ProxyParseStatus.Complete && fromSegments.Length != headerLength))
        {
            return $"contiguous {status} ({headerLength} bytes), segmented {segmented} ({fromSegments.Length} bytes)";
        }

        if (expectedLength >= 0 && (status != ProxyParseStatus.Complete || headerLength != expectedLength))
        {
            return $"a valid header of {expectedLength} bytes parsed as {status} ({headerLength} bytes)";
        }

        if (status != ProxyParseStatus.Complete)
        {
            return status == ProxyParseStatus.NeedMore && data.Length >= MaxHeaderLength ? "needs more past the bound" : null;
        }

        if (headerLength > data.Length || headerLength > MaxHeaderLength || (header.Version == 1 && headerLength > ProxyHeaderParser.MaxVersion1Length))
        {
            return $"a header of {headerLength} bytes out of bounds";
        }

        if (ProxyHeaderParser.TryParse(data.Span[..headerLength], MaxHeaderLength, out var alone) != ProxyParseStatus.Complete || alone.Length != headerLength)
        {
            return "the header alone does not parse as it did with the stream after it";
        }

        var step = headerLength <= MaxEveryPrefixLength ? 1 : 1 + random.Next(16);
        for (var prefix = 0; prefix < headerLength; prefix += step)
        {
            if (ProxyHeaderParser.TryParse(data.Span[..prefix], MaxHeaderLength, out _) != ProxyParseStatus.NeedMore)
            {
                return $"the first {prefix} bytes of a {headerLength}-byte header do not need more";
            }
        }

        return ReadViews(header);
    }

    /// <summary>Reads every view of a complete header, so none of them may throw or allocate.</summary>
    private static string? ReadViews(ProxyHeader header)
    {
        Span<byte> address = stackalloc byte[16];
        var ip = header.TryWriteSourceAddress(address, out var written);
        if (ip != header.Family is ProxyAddressFamily.InterNetwork or ProxyAddressFamily.InterNetworkV6)
        {
            return $"source address written: {ip}, family {header.Family}";
        }

        var ssl = header.Ssl;
        var sum = written + header.Alpn.Length + header.Authority.Length + header.UniqueId.Length + ssl.Version.Length
            + ssl.CommonName.Length + ssl.Cipher.Length + header.SourcePath.Length + header.DestinationPath.Length;
        return header.UniqueId.Length > 128 || sum < 0 ? "unique id over 128 bytes" : null;
    }
}
