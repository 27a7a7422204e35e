using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>A CURVE key pair, each key as 40 Z85 characters, ready for <see cref="ZmqSocket.CurvePublicKey"/> and friends.</summary>
/// <param name="PublicKey">The public key (give it to peers).</param>
/// <param name="SecretKey">The secret key (keep it).</param>
public readonly record struct ZmqCurveKeyPair(string PublicKey, string SecretKey)
{
    private const int Z85KeyLength = 40;

    /// <summary>Generates a new key pair (<c>zmq_curve_keypair</c>).</summary>
    /// <returns>The key pair.</returns>
    /// <exception cref="NotSupportedException">libzmq was built without CURVE.</exception>
    public static unsafe ZmqCurveKeyPair Generate()
    {
        LibZmqLoader.EnsureLoaded();
        var publicKey = stackalloc byte[Z85KeyLength + 1];
        var secretKey = stackalloc byte[Z85KeyLength + 1];
        if (LibZmq.CurveKeypair(publicKey, secretKey) != 0)
        {
            throw new NotSupportedException($"zmq_curve_keypair: {ZmqException.Describe(LibZmq.Errno())} (libzmq without CURVE support?)");
        }

        return new ZmqCurveKeyPair(
            new string((sbyte*)publicKey, 0, Z85KeyLength),
            new string((sbyte*)secretKey, 0, Z85KeyLength));
    }
}
