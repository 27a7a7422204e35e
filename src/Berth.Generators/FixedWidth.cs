namespace Berth.Generators;

/// <summary>The fields whose wire form is their memory on a machine of the contract's byte order.</summary>
internal static class FixedWidth
{
    /// <summary>
    /// The width of a fixed-width primitive or enum, or 0 for any other type. Not bool: its byte is checked on reading,
    /// so it cannot be copied unchecked.
    /// </summary>
    public static int Of(FieldType type) => type.Kind switch
    {
        WireKind.Byte or WireKind.SByte => 1,
        WireKind.Int16 or WireKind.UInt16 or WireKind.Char => 2,
        WireKind.Int32 or WireKind.UInt32 or WireKind.Single => 4,
        WireKind.Int64 or WireKind.UInt64 or WireKind.Double => 8,
        WireKind.Enum => Of(type.Element!),
        _ => 0,
    };
}
