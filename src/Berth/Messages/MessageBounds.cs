namespace Berth.Messages;

/// <summary>The limits a message contract enforces on both writing and reading, so no input decodes into more than they allow.</summary>
/// <param name="MaxEncodedSize">Largest body in bytes.</param>
/// <param name="MaxCollectionCount">Most elements in one array or list field.</param>
/// <param name="MaxDepth">Deepest nesting of messages inside the outermost one.</param>
public readonly record struct MessageBounds(int MaxEncodedSize, int MaxCollectionCount, int MaxDepth)
{
    /// <summary>Largest body of a contract that does not set one: 1 MiB.</summary>
    public const int DefaultMaxEncodedSize = 1024 * 1024;

    /// <summary>Most elements per collection field of a contract that does not set it.</summary>
    public const int DefaultMaxCollectionCount = 1024;

    /// <summary>Deepest nesting of a contract that does not set it.</summary>
    public const int DefaultMaxDepth = 16;
}
