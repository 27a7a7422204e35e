using Berth.Buffers;
using Berth.Messages;

namespace Berth.Tests.Messages;

/// <summary>The generated catalog registers every contract of its assembly; a second contract with a taken id is refused.</summary>
public class RegistryTests
{
    [Fact]
    public void The_generated_catalog_registers_every_contract_of_the_assembly()
    {
        var registry = MessageCatalog.Register(new MessageRegistry());

        Assert.Equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 40, 41, 42, 43, 44, 50, 51, 52, 53, 54, 55, 56, 1001], registry.Types.Select(t => t.Id).Order());
        Assert.True(registry.TryGet(2, out var scalars));
        Assert.Equal(typeof(Scalars), scalars.Type);
        Assert.Equal(Endianness.Big, scalars.ByteOrder);
        Assert.Equal(new MessageBounds(16, MessageBounds.DefaultMaxCollectionCount, MessageBounds.DefaultMaxDepth), Small.Bounds);
    }

    [Fact]
    public void Registering_a_catalog_twice_is_harmless()
    {
        var registry = MessageCatalog.Register(MessageCatalog.Register(new MessageRegistry()));

        Assert.Equal(26, registry.Types.Count);
    }

    [Fact]
    public void Catalogs_of_two_assemblies_that_share_an_id_collide_at_registration()
    {
        var registry = Berth.Fuzz.MessageCatalog.Register(new MessageRegistry());

        var error = Assert.Throws<MessageIdConflictException>(() => MessageCatalog.Register(registry));

        Assert.Equal(1001, error.Conflicting.Id);
        Assert.Contains("Berth.Fuzz.Messages.FuzzMove (Berth.Fuzz)", error.Message, StringComparison.Ordinal);
        Assert.Contains("Berth.Tests.Messages.FuzzTwin (Berth.Tests)", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_second_contract_with_a_taken_id_is_refused_naming_both_types_and_assemblies()
    {
        var registry = new MessageRegistry().Add<Move>();

        var error = Assert.Throws<MessageIdConflictException>(() => registry.Add<Impostor>());

        Assert.Equal(typeof(Move), error.Registered.Type);
        Assert.Equal(typeof(Impostor), error.Conflicting.Type);
        Assert.Contains("Berth.Tests.Messages.Move (Berth.Tests)", error.Message, StringComparison.Ordinal);
        Assert.Contains("Impostor", error.Message, StringComparison.Ordinal);
    }
}

/// <summary>
/// A contract that takes the id of the fuzz runner's FuzzMove: each compilation sees only its own contracts, so
/// only registering both catalogs can catch it.
/// </summary>
[Message(1001)]
public partial struct FuzzTwin
{
    [Field(0)] public int Value;
}

/// <summary>
/// A hand-written contract that claims Move's id: the compiler reports two [Message] types with one id in one
/// assembly, so only the registry can catch a clash between assemblies, or with a contract written by hand.
/// </summary>
public readonly struct Impostor : IMessage<Impostor>
{
    public static int MessageId => 1;

    public static Endianness ByteOrder => Endianness.Little;

    public static MessageBounds Bounds => new(4, 1, 1);

    public static int SizeHint => 0;

    public static void Write(ref PacketWriter writer, in Impostor message)
    {
    }

    public static Impostor Read(ref PacketReader reader) => default;

    public static void WriteEmbedded(ref PacketWriter writer, in Impostor message, int depth, int maxDepth)
    {
    }

    public static Impostor ReadEmbedded(ref PacketReader reader, int depth, int maxDepth) => default;
}
