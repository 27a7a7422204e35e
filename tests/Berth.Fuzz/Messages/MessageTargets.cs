namespace Berth.Fuzz.Messages;

/// <summary>One fuzz target per sample contract: a fixed-width struct, a class of every variable form, a recursive class.</summary>
internal static class MessageTargets
{
    public static IFuzzTarget Move() => new MessageReaderTarget<FuzzMove>("message-move", FuzzMessageMaker.Move, fixedWidth: true);

    public static IFuzzTarget Chat() => new MessageReaderTarget<FuzzChat>("message-chat", FuzzMessageMaker.Chat, fixedWidth: false);

    public static IFuzzTarget Tree() => new MessageReaderTarget<FuzzTree>("message-tree", FuzzMessageMaker.Tree, fixedWidth: false);
}
