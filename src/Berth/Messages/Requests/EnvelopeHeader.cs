namespace Berth.Messages.Requests;

/// <summary>The fixed part of an enveloped frame body, as <see cref="RequestEnvelope"/> reads and writes it.</summary>
/// <param name="Kind">Request, reply or error reply.</param>
/// <param name="Correlation">The request's id on its connection: 1 for the first, then one more for each, never reused.</param>
/// <param name="Tag">The message id of the body that follows, or the error code of an error reply.</param>
public readonly record struct EnvelopeHeader(EnvelopeKind Kind, long Correlation, int Tag);
