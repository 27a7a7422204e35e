namespace Berth.Messages.Requests;

/// <summary>What an enveloped frame carries; the value is the reserved message id that opens its body.</summary>
public enum EnvelopeKind
{
    /// <summary>A request: the envelope's tag is the request's message id, its body follows.</summary>
    Request = int.MinValue,

    /// <summary>A reply: the envelope's tag is the reply's message id, its body follows.</summary>
    Reply = int.MinValue + 1,

    /// <summary>An error reply: the envelope's tag is the error code, a UTF-8 description follows.</summary>
    Error = int.MinValue + 2,
}
