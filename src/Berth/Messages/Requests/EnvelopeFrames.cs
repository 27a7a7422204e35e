using Berth.Buffers;
using Berth.Connections;

namespace Berth.Messages.Requests;

/// <summary>Cached frame writers for enveloped frames, so sending a request or a reply allocates no delegate.</summary>
internal static class EnvelopeFrames<TMessage>
    where TMessage : IMessage<TMessage>
{
    public static readonly FrameWriter<(long Correlation, TMessage Message)> Request = static (ref PacketWriter writer, (long Correlation, TMessage Message) state) =>
    {
        RequestEnvelope.Write(ref writer, new EnvelopeHeader(EnvelopeKind.Request, state.Correlation, TMessage.MessageId));
        TMessage.Write(ref writer, state.Message);
    };

    public static readonly FrameWriter<(long Correlation, TMessage Message)> Reply = static (ref PacketWriter writer, (long Correlation, TMessage Message) state) =>
    {
        RequestEnvelope.Write(ref writer, new EnvelopeHeader(EnvelopeKind.Reply, state.Correlation, TMessage.MessageId));
        TMessage.Write(ref writer, state.Message);
    };
}
