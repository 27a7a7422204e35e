using System.Runtime.CompilerServices;

namespace Berth.Messages;

/// <summary>When a contract's value may be copied to and from a body as its memory, for the top-level entries.</summary>
internal static class MessageBlock
{
    /// <summary>
    /// The contract's <see cref="IMessage{TSelf}.BlockSize"/> when the type is also a struct of exactly that many bytes
    /// without references, 0 otherwise. The JIT knows the type test and the size per contract, so for a generated block
    /// this is a constant, and a hand-written contract's wrong answer falls back to its fields rather than copying memory
    /// that is not a body.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Size<TMessage>()
        where TMessage : IMessage<TMessage> =>
        RuntimeHelpers.IsReferenceOrContainsReferences<TMessage>() || TMessage.BlockSize != Unsafe.SizeOf<TMessage>()
            ? 0
            : Unsafe.SizeOf<TMessage>();
}
