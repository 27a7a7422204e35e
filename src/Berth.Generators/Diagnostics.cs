using System.Linq;
using Microsoft.CodeAnalysis;

namespace Berth.Generators;

/// <summary>The mistakes in a message contract the compiler reports, each with its own id.</summary>
internal static class Diagnostics
{
    private const string Category = "Berth.Messages";

    public static readonly DiagnosticDescriptor DuplicateId = Error(
        "BERTH001", "Duplicate message id", "Message id {0} is declared by both {1} and {2}");

    public static readonly DiagnosticDescriptor UnsupportedFieldType = Error(
        "BERTH002", "Unsupported field type", "{0}.{1} has type {2}, which a message field cannot have");

    public static readonly DiagnosticDescriptor NotPartial = Error(
        "BERTH003", "Message type not partial", "{0} must be declared partial, and so must every type it is nested in, to receive its generated code");

    public static readonly DiagnosticDescriptor FieldOrderGap = Error(
        "BERTH004", "Gap in field order", "{0} has no field at order {1}; field orders run 0, 1, 2, ... without gaps");

    public static readonly DiagnosticDescriptor DuplicateFieldOrder = Error(
        "BERTH005", "Duplicate field order", "{0}.{1} and {0}.{2} both have field order {3}");

    public static readonly DiagnosticDescriptor NotConstructible = Error(
        "BERTH006", "Field cannot be set", "{0}.{1} is neither settable nor a parameter of a constructor, so a read message could not carry it");

    public static readonly DiagnosticDescriptor GenericMessage = Error(
        "BERTH007", "Generic message type", "{0} is generic; a message contract must be a closed, non-generic type");

    public static readonly DiagnosticDescriptor ByteOrderMismatch = Error(
        "BERTH008", "Nested message with another byte order", "{0}.{1} nests {2}, which is {3}-endian while {0} is {4}-endian");

    public static readonly DiagnosticDescriptor InvalidBound = Error(
        "BERTH009", "Bound not positive", "{0} sets {1} to {2}; a bound must be positive");

    public static readonly DiagnosticDescriptor NegativeFieldOrder = Error(
        "BERTH010", "Negative field order", "{0}.{1} has field order {2}; field orders start at 0");

    public static readonly DiagnosticDescriptor NotUnionMember = Error(
        "BERTH011", "Not a union member", "{1} cannot be a member of {0}: a member must be a [Message] type deriving from {0}, in its byte order");

    public static readonly DiagnosticDescriptor UnionNotAbstractClass = Error(
        "BERTH012", "Union not an abstract class", "{0} must be an abstract class or record to be a message union");

    private static readonly DiagnosticDescriptor[] All =
    [
        DuplicateId, UnsupportedFieldType, NotPartial, FieldOrderGap, DuplicateFieldOrder,
        NotConstructible, GenericMessage, ByteOrderMismatch, InvalidBound, NegativeFieldOrder,
        NotUnionMember, UnionNotAbstractClass,
    ];

    public static DiagnosticDescriptor ById(string id) => All.First(d => d.Id == id);

    private static DiagnosticDescriptor Error(string id, string title, string message) =>
        new(id, title, message, Category, DiagnosticSeverity.Error, isEnabledByDefault: true);
}
