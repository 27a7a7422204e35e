namespace Berth.Cli.Zmq;

/// <summary>How the benchmark's sender produces each message (the strategies of the send-strategy decision).</summary>
internal enum SendStrategy
{
    /// <summary>What a user writes first: one reused array sent with <c>Send(ReadOnlySpan&lt;byte&gt;)</c> under the socket's default zero-copy threshold.</summary>
    Default,

    /// <summary>A new array per message, sent with <c>zmq_send</c> (copied by libzmq).</summary>
    ByteArray,

    /// <summary>A pooled array per message, sent with <c>zmq_send</c> (copied by libzmq).</summary>
    ArrayPool,

    /// <summary>A libzmq-allocated frame filled in place (<c>zmq_msg_init_size</c>), sent without copy.</summary>
    Message,

    /// <summary>A pooled array handed to libzmq without copy (<c>zmq_msg_init_data</c> + free callback).</summary>
    ZeroCopy,

    /// <summary>
    /// The default's one reused array sent with <c>Send(ReadOnlySpan&lt;byte&gt;)</c> with zero-copy off: <c>zmq_send</c>
    /// copies it at every size. Beside <see cref="Pooled"/>, it shows which of the two paths the default threshold should
    /// pick at each size, in the same run.
    /// </summary>
    Copied,

    /// <summary>
    /// The default's one reused array sent with <c>Send(ReadOnlySpan&lt;byte&gt;)</c> with a zero-copy threshold of 0:
    /// copied once into a pooled array handed to libzmq without a second copy, at every size.
    /// </summary>
    Pooled,
}
