using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Berth.Proxy;

/// <summary>
/// A parsed PROXY-protocol header (v1 or v2). The spans it exposes (Unix paths, TLVs) are views over the bytes it was
/// parsed from, valid only as long as those bytes are; nothing here allocates except the <c>Create…EndPoint</c> methods.
/// </summary>
public readonly ref struct ProxyHeader
{
    private readonly UInt128 _source;
    private readonly UInt128 _destination;
    private readonly ReadOnlySpan<byte> _unixSource;
    private readonly ReadOnlySpan<byte> _unixDestination;
    private readonly ReadOnlySpan<byte> _tlvs;

    internal ProxyHeader(int version, int length, ProxyCommand command, ProxyAddressFamily family)
    {
        Version = version;
        Length = length;
        Command = command;
        Family = family;
    }

    internal ProxyHeader(int version, int length, ProxyAddressFamily family, UInt128 source, UInt128 destination, int sourcePort, int destinationPort, ReadOnlySpan<byte> tlvs)
        : this(version, length, ProxyCommand.Proxy, family)
    {
        _source = source;
        _destination = destination;
        SourcePort = sourcePort;
        DestinationPort = destinationPort;
        _tlvs = tlvs;
    }

    internal ProxyHeader(int length, ReadOnlySpan<byte> unixSource, ReadOnlySpan<byte> unixDestination, ReadOnlySpan<byte> tlvs)
        : this(2, length, ProxyCommand.Proxy, ProxyAddressFamily.Unix)
    {
        _unixSource = unixSource;
        _unixDestination = unixDestination;
        _tlvs = tlvs;
    }

    internal ProxyHeader(int length, ProxyCommand command, ReadOnlySpan<byte> tlvs)
        : this(2, length, command, ProxyAddressFamily.Unspecified)
    {
        _tlvs = tlvs;
    }

    /// <summary>1 for the text form, 2 for the binary form.</summary>
    public int Version { get; }

    /// <summary>The bytes of the stream the header takes; what follows them is the connection's own data.</summary>
    public int Length { get; }

    /// <summary>Whether the header relays a client or is the proxy's own connection.</summary>
    public ProxyCommand Command { get; }

    /// <summary>The kind of addresses carried; <see cref="ProxyAddressFamily.Unspecified"/> when there are none to use.</summary>
    public ProxyAddressFamily Family { get; }

    /// <summary>The original client's port (0 for Unix or unspecified addresses).</summary>
    public int SourcePort { get; }

    /// <summary>The port the client connected to on the proxy (0 for Unix or unspecified addresses).</summary>
    public int DestinationPort { get; }

    /// <summary>The original client's socket path, up to its first NUL (Unix family only).</summary>
    public ReadOnlySpan<byte> SourcePath => _unixSource;

    /// <summary>The socket path the client connected to (Unix family only).</summary>
    public ReadOnlySpan<byte> DestinationPath => _unixDestination;

    /// <summary>The raw v2 TLV area (empty for v1); every TLV in it was checked to lie within it.</summary>
    public ReadOnlySpan<byte> Tlvs => _tlvs;

    /// <summary>The ALPN TLV's value; empty when absent.</summary>
    public ReadOnlySpan<byte> Alpn => Tlv(ProxyTlvType.Alpn);

    /// <summary>The authority TLV's value (the host name the client asked for, UTF-8); empty when absent.</summary>
    public ReadOnlySpan<byte> Authority => Tlv(ProxyTlvType.Authority);

    /// <summary>The unique-id TLV's value (at most 128 bytes); empty when absent.</summary>
    public ReadOnlySpan<byte> UniqueId => Tlv(ProxyTlvType.UniqueId);

    /// <summary>The SSL TLV; <see cref="ProxySslInfo.IsPresent"/> is false when absent.</summary>
    public ProxySslInfo Ssl => new(Tlv(ProxyTlvType.Ssl));

    /// <summary>The value of the first TLV of <paramref name="type"/> (see <see cref="ProxyTlvType"/>).</summary>
    public bool TryGetTlv(byte type, out ReadOnlySpan<byte> value) => ProxyTlvs.TryFind(_tlvs, type, out value);

    /// <summary>Writes the original client's IP address in network order (4 or 16 bytes); false for other families or a short destination.</summary>
    public bool TryWriteSourceAddress(Span<byte> destination, out int bytesWritten) =>
        TryWriteAddress(_source, destination, out bytesWritten);

    /// <summary>Writes the address the client connected to, as <see cref="TryWriteSourceAddress"/> does.</summary>
    public bool TryWriteDestinationAddress(Span<byte> destination, out int bytesWritten) =>
        TryWriteAddress(_destination, destination, out bytesWritten);

    /// <summary>The original client as an endpoint (one allocation), or null when the header carries none to use.</summary>
    public EndPoint? CreateSourceEndPoint() => CreateEndPoint(_source, SourcePort, _unixSource);

    /// <summary>The address the client connected to, as an endpoint (one allocation), or null when the header carries none.</summary>
    public EndPoint? CreateDestinationEndPoint() => CreateEndPoint(_destination, DestinationPort, _unixDestination);

    private ReadOnlySpan<byte> Tlv(byte type) => TryGetTlv(type, out var value) ? value : default;

    private bool TryWriteAddress(UInt128 address, Span<byte> destination, out int bytesWritten)
    {
        bytesWritten = Family switch
        {
            ProxyAddressFamily.InterNetwork => 4,
            ProxyAddressFamily.InterNetworkV6 => 16,
            _ => 0,
        };
        if (bytesWritten == 0 || destination.Length < bytesWritten)
        {
            bytesWritten = 0;
            return false;
        }

        if (bytesWritten == 4)
        {
            BinaryPrimitives.WriteUInt32BigEndian(destination, (uint)address);
        }
        else
        {
            BinaryPrimitives.WriteUInt128BigEndian(destination, address);
        }

        return true;
    }

    private EndPoint? CreateEndPoint(UInt128 address, int port, ReadOnlySpan<byte> path)
    {
        switch (Family)
        {
            case ProxyAddressFamily.InterNetwork:
            case ProxyAddressFamily.InterNetworkV6:
                Span<byte> bytes = stackalloc byte[16];
                TryWriteAddress(address, bytes, out var written);
                return new IPEndPoint(new IPAddress(bytes[..written]), port);
            case ProxyAddressFamily.Unix when !path.IsEmpty && Socket.OSSupportsUnixDomainSockets:
                return new UnixDomainSocketEndPoint(Encoding.UTF8.GetString(path));
            default:
                return null;
        }
    }
}
