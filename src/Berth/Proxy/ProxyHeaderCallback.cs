using System.Net;

namespace Berth.Proxy;

/// <summary>
/// Sees each PROXY-protocol header once it is parsed, before the connection is admitted: the place to read its TLVs
/// (ALPN, authority, SSL, unique id), which are views valid only during the call.
/// </summary>
/// <param name="proxy">The address the connection came from: the proxy's.</param>
/// <param name="header">The parsed header.</param>
/// <returns>False refuses the connection (<c>ProxyHeaderRejected</c>).</returns>
public delegate bool ProxyHeaderCallback(EndPoint? proxy, in ProxyHeader header);
