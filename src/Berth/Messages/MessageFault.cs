namespace Berth.Messages;

/// <summary>Why a message body could not be read.</summary>
public enum MessageFault
{
    /// <summary>The body ended inside a field.</summary>
    Truncated,

    /// <summary>A field held a value its type cannot have (a boolean other than 0 or 1, invalid UTF-8, a date out of range, a presence byte other than 0 or 1).</summary>
    Malformed,

    /// <summary>A collection announced more elements than the contract's bound or than the body can hold.</summary>
    CountOverBound,

    /// <summary>The body is larger than the contract's maximum encoded size.</summary>
    SizeOverBound,

    /// <summary>Messages nest deeper than the outermost contract's bound.</summary>
    DepthOverBound,
}
