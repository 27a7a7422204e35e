using System.Runtime.CompilerServices;

namespace Berth.Buffers;

/// <summary>
/// The element types a span write or read takes: those whose bytes are one number, so turning each element around
/// is the other byte order. A struct of several fields, a boolean (whose byte is checked on reading) and the
/// machine-sized integers are not.
/// </summary>
internal static class ElementTypes
{
    // Every test folds to a constant for a value type, so a valid call costs nothing.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Check<T>()
        where T : unmanaged
    {
        if (!(typeof(T).IsPrimitive || typeof(T).IsEnum) || typeof(T) == typeof(bool) || typeof(T) == typeof(nint) || typeof(T) == typeof(nuint))
        {
            throw NotAnElementType(typeof(T));
        }
    }

    private static ArgumentException NotAnElementType(Type type) =>
        new($"{type.Name} is not a fixed-width number or an enum of one; write it field by field.", "T");
}
