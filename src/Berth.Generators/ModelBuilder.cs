using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Berth.Generators;

/// <summary>Turns one [Message] type into a <see cref="MessageModel"/>, reporting what keeps it from being one.</summary>
internal static class ModelBuilder
{
    public const string MessageAttributeName = "Berth.Messages.MessageAttribute";
    public const string UnionAttributeName = "Berth.Messages.MessageUnionAttribute";
    private const string FieldAttributeName = "Berth.Messages.FieldAttribute";

    private static readonly SymbolDisplayFormat TypeFormat = SymbolDisplayFormat.FullyQualifiedFormat
        .AddMiscellaneousOptions(SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier);

    public static MessageResult Build(GeneratorAttributeSyntaxContext context, CancellationToken cancellationToken)
    {
        var type = (INamedTypeSymbol)context.TargetSymbol;
        var attribute = context.Attributes[0];
        var diagnostics = new List<DiagnosticInfo>();
        var typeLocation = type.Locations.FirstOrDefault();
        var name = type.Name;

        if (IsInGenericContext(type))
        {
            diagnostics.Add(DiagnosticInfo.Create(Diagnostics.GenericMessage, typeLocation, name));
        }

        for (var t = type; t is not null; t = t.ContainingType)
        {
            if (!IsPartial(t, cancellationToken))
            {
                diagnostics.Add(DiagnosticInfo.Create(Diagnostics.NotPartial, typeLocation, name));
                break;
            }
        }

        var id = attribute.ConstructorArguments.Length == 1 && attribute.ConstructorArguments[0].Value is int i ? i : 0;
        var bigEndian = ReadBigEndian(attribute);
        var (maxSize, maxCount, maxDepth) = ReadBounds(attribute, name, typeLocation, diagnostics);

        var fields = CollectFields(type, name, bigEndian, diagnostics);
        var constructorArguments = ChooseConstructor(type, fields, name, diagnostics);

        if (diagnostics.Count > 0)
        {
            return new MessageResult(null, ToArray(diagnostics));
        }

        var model = new MessageModel(
            NamespaceOf(type),
            Containers(type),
            Keyword(type),
            name,
            type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat),
            id,
            bigEndian,
            maxSize,
            maxCount,
            maxDepth,
            type.IsValueType,
            ToArray(fields.Select(f => f.Model)),
            ToArray(constructorArguments),
            IsUnion(type.BaseType),
            IsVisibleInAssembly(type),
            LocationInfo.From(attribute.ApplicationSyntaxReference?.GetSyntax(cancellationToken).GetLocation()),
            MayBeBlock(type, fields, constructorArguments));
        return new MessageResult(model, ToArray(diagnostics));
    }

    /// <summary>
    /// Whether the struct's memory may equal its wire form: every instance field is a wire field (not volatile, whose
    /// address may not be taken quietly) of a <see cref="FixedWidth"/> type, the wire order puts each at an offset
    /// that is a multiple of its size with no gap, the whole is a multiple of the widest, and no constructor runs.
    /// </summary>
    private static bool MayBeBlock(INamedTypeSymbol type, List<(FieldModel Model, ISymbol Member)> fields, List<string> constructorArguments)
    {
        var instanceFields = type.GetMembers().OfType<IFieldSymbol>().Count(f => !f.IsStatic && !f.IsConst);
        if (!type.IsValueType || !type.IsUnmanagedType || constructorArguments.Count > 0 || fields.Count == 0
            || fields.Count != instanceFields || fields.Any(f => f.Member is not IFieldSymbol { IsVolatile: false }))
        {
            return false;
        }

        var offset = 0;
        var widest = 1;
        foreach (var (model, _) in fields)
        {
            var size = FixedWidth.Of(model.Type);
            if (size == 0 || offset % size != 0)
            {
                return false;
            }

            offset += size;
            widest = Math.Max(widest, size);
        }

        return offset % widest == 0;
    }

    /// <summary>The bounds an attribute sets (defaults otherwise), reporting any that is not positive.</summary>
    private static (int MaxSize, int MaxCount, int MaxDepth) ReadBounds(AttributeData attribute, string name, Location? location, List<DiagnosticInfo> diagnostics)
    {
        var bounds = (Named(attribute, "MaxEncodedSize", 1024 * 1024), Named(attribute, "MaxCollectionCount", 1024), Named(attribute, "MaxDepth", 16));
        foreach (var (boundName, value) in new[] { ("MaxEncodedSize", bounds.Item1), ("MaxCollectionCount", bounds.Item2), ("MaxDepth", bounds.Item3) })
        {
            if (value <= 0)
            {
                diagnostics.Add(DiagnosticInfo.Create(Diagnostics.InvalidBound, location, name, boundName, value));
            }
        }

        return bounds;
    }

    /// <summary>Whether the attribute data of a [Message] type asks for big-endian fields.</summary>
    private static bool ReadBigEndian(AttributeData attribute) => Named(attribute, "ByteOrder", 0) == 1;

    private static EquatableArray<T> ToArray<T>(IEnumerable<T> items)
        where T : IEquatable<T> => new(items.ToImmutableArray());

    private static int Named(AttributeData attribute, string name, int fallback)
    {
        foreach (var argument in attribute.NamedArguments)
        {
            if (argument.Key == name && argument.Value.Value is int value)
            {
                return value;
            }
        }

        return fallback;
    }

    private static bool IsInGenericContext(INamedTypeSymbol type)
    {
        for (var t = type; t is not null; t = t.ContainingType)
        {
            if (t.IsGenericType)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Whether code elsewhere in the assembly (the generated catalog) can name the type.</summary>
    private static bool IsVisibleInAssembly(INamedTypeSymbol type)
    {
        for (var t = type; t is not null; t = t.ContainingType)
        {
            if (t.DeclaredAccessibility is not (Accessibility.Public or Accessibility.Internal or Accessibility.ProtectedOrInternal))
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsPartial(INamedTypeSymbol type, CancellationToken cancellationToken) =>
        type.DeclaringSyntaxReferences.All(r =>
            r.GetSyntax(cancellationToken) is TypeDeclarationSyntax declaration && declaration.Modifiers.Any(SyntaxKind.PartialKeyword));

    private static string? NamespaceOf(INamedTypeSymbol type) =>
        type.ContainingNamespace.IsGlobalNamespace ? null : type.ContainingNamespace.ToDisplayString();

    /// <summary>The types that contain <paramref name="type"/>, outermost first, so the generated part nests the same way.</summary>
    private static EquatableArray<ContainerModel> Containers(INamedTypeSymbol type)
    {
        var containers = new List<ContainerModel>();
        for (var t = type.ContainingType; t is not null; t = t.ContainingType)
        {
            containers.Insert(0, new ContainerModel(Keyword(t), t.Name));
        }

        return ToArray(containers);
    }

    private static string Keyword(INamedTypeSymbol type) =>
        (type.IsRecord ? "record " : string.Empty) + (type.TypeKind == TypeKind.Struct ? "struct" : type.TypeKind == TypeKind.Interface ? "interface" : "class");

    private static List<(FieldModel Model, ISymbol Member)> CollectFields(INamedTypeSymbol type, string name, bool bigEndian, List<DiagnosticInfo> diagnostics)
    {
        var fields = new List<(FieldModel Model, ISymbol Member)>();
        foreach (var member in type.GetMembers())
        {
            if (member.IsStatic || member is not (IFieldSymbol or IPropertySymbol))
            {
                continue;
            }

            var fieldAttribute = member.GetAttributes().FirstOrDefault(a => a.AttributeClass?.ToDisplayString() == FieldAttributeName);
            if (fieldAttribute is null)
            {
                continue;
            }

            var order = fieldAttribute.ConstructorArguments.Length == 1 && fieldAttribute.ConstructorArguments[0].Value is int o ? o : 0;
            var location = member.Locations.FirstOrDefault();
            if (order < 0)
            {
                diagnostics.Add(DiagnosticInfo.Create(Diagnostics.NegativeFieldOrder, location, name, member.Name, order));
                continue;
            }

            var memberType = member is IFieldSymbol field ? field.Type : ((IPropertySymbol)member).Type;
            var fieldType = MapType(memberType, allowCollection: true);
            if (fieldType is null)
            {
                diagnostics.Add(DiagnosticInfo.Create(Diagnostics.UnsupportedFieldType, location, name, member.Name, memberType.ToDisplayString()));
                continue;
            }

            CheckNestedByteOrder(memberType, name, member, bigEndian, diagnostics);
            fields.Add((new FieldModel(member.Name, order, fieldType), member));
        }

        fields.Sort((a, b) => a.Model.Order.CompareTo(b.Model.Order));
        for (var i = 1; i < fields.Count; i++)
        {
            if (fields[i].Model.Order == fields[i - 1].Model.Order)
            {
                diagnostics.Add(DiagnosticInfo.Create(
                    Diagnostics.DuplicateFieldOrder, fields[i].Member.Locations.FirstOrDefault(), name, fields[i - 1].Model.Name, fields[i].Model.Name, fields[i].Model.Order));
            }
        }

        var expected = 0;
        foreach (var order in fields.Select(f => f.Model.Order).Distinct())
        {
            if (order != expected)
            {
                diagnostics.Add(DiagnosticInfo.Create(Diagnostics.FieldOrderGap, type.Locations.FirstOrDefault(), name, expected));
                break;
            }

            expected++;
        }

        return fields;
    }

    /// <summary>Maps a member type to its wire form, or null when a message cannot carry it.</summary>
    private static FieldType? MapType(ITypeSymbol type, bool allowCollection)
    {
        var typeName = type.ToDisplayString(TypeFormat);
        if (type is INamedTypeSymbol { OriginalDefinition.SpecialType: SpecialType.System_Nullable_T } nullable)
        {
            var inner = MapType(nullable.TypeArguments[0], allowCollection);
            return inner is null ? null : new FieldType(WireKind.Optional, typeName, inner, IsValueType: true);
        }

        if (!type.IsValueType && type.NullableAnnotation != NullableAnnotation.NotAnnotated)
        {
            var inner = MapType(type.WithNullableAnnotation(NullableAnnotation.NotAnnotated), allowCollection);
            return inner is null ? null : new FieldType(WireKind.Optional, typeName, inner, IsValueType: false);
        }

        var kind = type.SpecialType switch
        {
            SpecialType.System_Byte => WireKind.Byte,
            SpecialType.System_SByte => WireKind.SByte,
            SpecialType.System_Boolean => WireKind.Boolean,
            SpecialType.System_Int16 => WireKind.Int16,
            SpecialType.System_UInt16 => WireKind.UInt16,
            SpecialType.System_Char => WireKind.Char,
            SpecialType.System_Int32 => WireKind.Int32,
            SpecialType.System_UInt32 => WireKind.UInt32,
            SpecialType.System_Int64 => WireKind.Int64,
            SpecialType.System_UInt64 => WireKind.UInt64,
            SpecialType.System_Single => WireKind.Single,
            SpecialType.System_Double => WireKind.Double,
            SpecialType.System_Decimal => WireKind.Decimal,
            SpecialType.System_DateTime => WireKind.DateTime,
            SpecialType.System_String => WireKind.String,
            _ => (WireKind?)null,
        };
        if (kind is { } primitive)
        {
            return new FieldType(primitive, typeName, null, type.IsValueType);
        }

        switch (type)
        {
            case INamedTypeSymbol { TypeKind: TypeKind.Enum, EnumUnderlyingType: { } underlying }:
                var underlyingType = MapType(underlying, allowCollection: false);
                return underlyingType is null ? null : new FieldType(WireKind.Enum, typeName, underlyingType, IsValueType: true);
            case INamedTypeSymbol named when named.ToDisplayString() == "System.Guid":
                return new FieldType(WireKind.Guid, typeName, null, IsValueType: true);
            case INamedTypeSymbol named when named.ToDisplayString() == "System.TimeSpan":
                return new FieldType(WireKind.TimeSpan, typeName, null, IsValueType: true);
            case INamedTypeSymbol named when named.ToDisplayString() == "Berth.Messages.Utf8Field":
                return new FieldType(WireKind.Utf8Field, typeName, null, IsValueType: true);
            case INamedTypeSymbol named when named.ToDisplayString() == "System.ReadOnlyMemory<byte>":
                return new FieldType(WireKind.ByteMemory, typeName, null, IsValueType: true);
            case IArrayTypeSymbol { Rank: 1, ElementType.SpecialType: SpecialType.System_Byte }:
                return new FieldType(WireKind.ByteArray, typeName, null, IsValueType: false);
            case IArrayTypeSymbol { Rank: 1 } array when allowCollection:
                var element = MapType(array.ElementType, allowCollection: false);
                return element is null ? null : new FieldType(WireKind.Array, typeName, element, IsValueType: false);
            case INamedTypeSymbol { IsGenericType: true } list when allowCollection && list.OriginalDefinition.ToDisplayString() == "System.Collections.Generic.List<T>":
                var listElement = MapType(list.TypeArguments[0], allowCollection: false);
                return listElement is null ? null : new FieldType(WireKind.List, typeName, listElement, IsValueType: false);
            case INamedTypeSymbol named when IsMessage(named):
                return new FieldType(WireKind.Message, typeName, null, named.IsValueType);
            default:
                return null;
        }
    }

    private static bool IsMessage(INamedTypeSymbol type) =>
        !type.IsGenericType && type.GetAttributes().Any(a => a.AttributeClass?.ToDisplayString() is MessageAttributeName or UnionAttributeName);

    private static bool IsUnion(INamedTypeSymbol? type) =>
        type is not null && type.GetAttributes().Any(a => a.AttributeClass?.ToDisplayString() == UnionAttributeName);

    public static UnionResult BuildUnion(GeneratorAttributeSyntaxContext context, CancellationToken cancellationToken)
    {
        var type = (INamedTypeSymbol)context.TargetSymbol;
        var attribute = context.Attributes[0];
        var diagnostics = new List<DiagnosticInfo>();
        var typeLocation = type.Locations.FirstOrDefault();
        var name = type.Name;
        if (IsInGenericContext(type))
        {
            diagnostics.Add(DiagnosticInfo.Create(Diagnostics.GenericMessage, typeLocation, name));
        }

        if (type.TypeKind != TypeKind.Class || !type.IsAbstract)
        {
            diagnostics.Add(DiagnosticInfo.Create(Diagnostics.UnionNotAbstractClass, typeLocation, name));
        }

        for (var t = type; t is not null; t = t.ContainingType)
        {
            if (!IsPartial(t, cancellationToken))
            {
                diagnostics.Add(DiagnosticInfo.Create(Diagnostics.NotPartial, typeLocation, name));
                break;
            }
        }

        var id = attribute.ConstructorArguments.Length > 0 && attribute.ConstructorArguments[0].Value is int i ? i : 0;
        var bigEndian = ReadBigEndian(attribute);
        var (maxSize, maxCount, maxDepth) = ReadBounds(attribute, name, typeLocation, diagnostics);
        var members = new List<UnionMemberModel>();
        var memberTypes = attribute.ConstructorArguments.Length > 1 ? attribute.ConstructorArguments[1].Values : ImmutableArray<TypedConstant>.Empty;
        var location = attribute.ApplicationSyntaxReference?.GetSyntax(cancellationToken).GetLocation();
        foreach (var member in memberTypes.Select(v => v.Value).OfType<INamedTypeSymbol>())
        {
            var messageAttribute = member.GetAttributes().FirstOrDefault(a => a.AttributeClass?.ToDisplayString() == MessageAttributeName);
            var derives = false;
            for (var b = member.BaseType; b is not null; b = b.BaseType)
            {
                derives |= SymbolEqualityComparer.Default.Equals(b, type);
            }

            if (messageAttribute is null || !derives || ReadBigEndian(messageAttribute) != bigEndian)
            {
                diagnostics.Add(DiagnosticInfo.Create(Diagnostics.NotUnionMember, location, name, member.Name));
                continue;
            }

            var memberId = messageAttribute.ConstructorArguments.Length == 1 && messageAttribute.ConstructorArguments[0].Value is int m ? m : 0;
            members.Add(new UnionMemberModel(member.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat), memberId));
        }

        if (diagnostics.Count > 0)
        {
            return new UnionResult(null, ToArray(diagnostics));
        }

        var model = new UnionModel(
            NamespaceOf(type),
            Containers(type),
            Keyword(type),
            name,
            type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat),
            id,
            bigEndian,
            maxSize,
            maxCount,
            maxDepth,
            ToArray(members),
            IsVisibleInAssembly(type),
            LocationInfo.From(location));
        return new UnionResult(model, ToArray(diagnostics));
    }

    private static void CheckNestedByteOrder(ITypeSymbol memberType, string name, ISymbol member, bool bigEndian, List<DiagnosticInfo> diagnostics)
    {
        var nested = Unwrap(memberType);
        var attribute = nested?.GetAttributes().FirstOrDefault(a => a.AttributeClass?.ToDisplayString() == MessageAttributeName);
        if (nested is null || attribute is null || ReadBigEndian(attribute) == bigEndian)
        {
            return;
        }

        diagnostics.Add(DiagnosticInfo.Create(
            Diagnostics.ByteOrderMismatch, member.Locations.FirstOrDefault(), name, member.Name, nested.Name, bigEndian ? "little" : "big", bigEndian ? "big" : "little"));
    }

    /// <summary>The message type inside a nullable, array or list member type, if there is one.</summary>
    private static INamedTypeSymbol? Unwrap(ITypeSymbol type) => type switch
    {
        IArrayTypeSymbol array => Unwrap(array.ElementType),
        INamedTypeSymbol { OriginalDefinition.SpecialType: SpecialType.System_Nullable_T } nullable => Unwrap(nullable.TypeArguments[0]),
        INamedTypeSymbol { IsGenericType: true } list => Unwrap(list.TypeArguments[0]),
        INamedTypeSymbol named => named,
        _ => null,
    };

    /// <summary>
    /// Picks the constructor that takes the most fields (matched by name, ignoring case, and type) and nothing else;
    /// every other field must be settable. Returns the field names in the chosen constructor's parameter order.
    /// </summary>
    private static List<string> ChooseConstructor(INamedTypeSymbol type, List<(FieldModel Model, ISymbol Member)> fields, string name, List<DiagnosticInfo> diagnostics)
    {
        List<string>? best = null;
        foreach (var constructor in type.InstanceConstructors)
        {
            var names = new List<string>();
            foreach (var parameter in constructor.Parameters)
            {
                var match = fields.FirstOrDefault(f =>
                    string.Equals(f.Member.Name, parameter.Name, StringComparison.OrdinalIgnoreCase)
                    && SymbolEqualityComparer.Default.Equals(MemberType(f.Member), parameter.Type));
                if (match.Model is null)
                {
                    names = null;
                    break;
                }

                names.Add(match.Model.Name);
            }

            if (names is not null && (best is null || names.Count > best.Count))
            {
                best = names;
            }
        }

        foreach (var (model, member) in fields)
        {
            if ((best is null || !best.Contains(model.Name)) && !IsSettable(member))
            {
                diagnostics.Add(DiagnosticInfo.Create(Diagnostics.NotConstructible, member.Locations.FirstOrDefault(), name, model.Name));
            }
        }

        return best ?? [];
    }

    private static ITypeSymbol MemberType(ISymbol member) => member is IFieldSymbol field ? field.Type : ((IPropertySymbol)member).Type;

    private static bool IsSettable(ISymbol member) => member switch
    {
        IFieldSymbol field => !field.IsReadOnly && !field.IsConst,
        IPropertySymbol property => property.SetMethod is not null,
        _ => false,
    };
}
