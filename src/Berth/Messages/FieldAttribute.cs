namespace Berth.Messages;

/// <summary>
/// Puts a field or property of a message on the wire at position <see cref="Order"/>. Orders run 0, 1, 2, ... without
/// gaps; a new version of a contract adds fields only after the last one.
/// </summary>
[AttributeUsage(AttributeTargets.Field | AttributeTargets.Property, Inherited = false)]
public sealed class FieldAttribute : Attribute
{
    /// <summary>Puts the member at position <paramref name="order"/>.</summary>
    public FieldAttribute(int order) => Order = order;

    /// <summary>Position of the member on the wire, from 0.</summary>
    public int Order { get; }
}
