namespace Berth.Generators;

/// <summary>How a field's value goes on the wire.</summary>
internal enum WireKind
{
    Byte,
    SByte,
    Boolean,
    Int16,
    UInt16,
    Char,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Single,
    Double,
    Decimal,
    Guid,
    DateTime,
    TimeSpan,
    String,
    Utf8Field,
    ByteArray,
    ByteMemory,
    Enum,
    Message,
    Optional,
    Array,
    List,
}

/// <summary>
/// A field's type as the emitter needs it. <see cref="TypeName"/> is the fully qualified declared type; an enum's
/// <see cref="Element"/> is its underlying type, an optional value's the value inside it, a collection's its element.
/// </summary>
internal sealed record FieldType(WireKind Kind, string TypeName, FieldType? Element, bool IsValueType);

/// <summary>One member on the wire.</summary>
internal sealed record FieldModel(string Name, int Order, FieldType Type);

/// <summary>A type the message is nested in, declared again as partial around the generated code.</summary>
internal sealed record ContainerModel(string Keyword, string Name);

/// <summary>
/// Everything the emitter needs to write one contract's code. <see cref="MayBeBlock"/>: a struct whose members are all
/// fields of fixed-width primitive or enum types, in wire order with no padding under natural alignment, built without
/// a constructor, so its memory may be its wire form (the generated code confirms the actual layout at run time).
/// </summary>
internal sealed record MessageModel(
    string? Namespace,
    EquatableArray<ContainerModel> Containers,
    string Keyword,
    string Name,
    string FullName,
    int Id,
    bool BigEndian,
    int MaxEncodedSize,
    int MaxCollectionCount,
    int MaxDepth,
    bool IsValueType,
    EquatableArray<FieldModel> Fields,
    EquatableArray<string> ConstructorArguments,
    bool HidesUnionMembers,
    bool InCatalog,
    LocationInfo? AttributeLocation,
    bool MayBeBlock);

/// <summary>One member of a union: its type and its message id, the tag before its body.</summary>
internal sealed record UnionMemberModel(string FullName, int Id);

/// <summary>Everything the emitter needs to write one union's code.</summary>
internal sealed record UnionModel(
    string? Namespace,
    EquatableArray<ContainerModel> Containers,
    string Keyword,
    string Name,
    string FullName,
    int Id,
    bool BigEndian,
    int MaxEncodedSize,
    int MaxCollectionCount,
    int MaxDepth,
    EquatableArray<UnionMemberModel> Members,
    bool InCatalog,
    LocationInfo? AttributeLocation);

/// <summary>What the generator learned from one [MessageUnion] declaration.</summary>
internal sealed record UnionResult(UnionModel? Model, EquatableArray<DiagnosticInfo> Diagnostics);

/// <summary>
/// A contract's id and name, for the duplicate-id check and the catalog; a contract nested privately in another type
/// is checked but cannot be named by the catalog.
/// </summary>
internal sealed record ContractEntry(int Id, string FullName, bool InCatalog, LocationInfo? AttributeLocation);

/// <summary>What the generator learned from one [Message] declaration: a model to emit, the mistakes to report, or both.</summary>
internal sealed record MessageResult(MessageModel? Model, EquatableArray<DiagnosticInfo> Diagnostics);
