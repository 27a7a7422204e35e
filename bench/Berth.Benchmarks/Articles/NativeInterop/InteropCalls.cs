using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// The same three C functions declared every way the benchmarks compare: source-generated
/// <c>LibraryImport</c>, runtime-marshalled <c>DllImport</c>, and each with
/// <c>[SuppressGCTransition]</c>, which is only safe because these calls are short and never
/// block or call back.
/// </summary>
internal static unsafe partial class InteropCalls
{
    [LibraryImport(InteropLibrary.Name, EntryPoint = "berth_send")]
    public static partial uint Send(byte* data, int length);

    [LibraryImport(InteropLibrary.Name, EntryPoint = "berth_recv")]
    public static partial void Recv(byte* data, int length, byte seed);

    [LibraryImport(InteropLibrary.Name, EntryPoint = "berth_transform")]
    public static partial void Transform(byte* data, int length, byte key);

    [LibraryImport(InteropLibrary.Name, EntryPoint = "berth_send")]
    [SuppressGCTransition]
    public static partial uint SendNoTransition(byte* data, int length);

    [DllImport(InteropLibrary.Name, EntryPoint = "berth_send")]
    public static extern uint SendDllImport(byte* data, int length);

    [DllImport(InteropLibrary.Name, EntryPoint = "berth_send")]
    [SuppressGCTransition]
    public static extern uint SendDllImportNoTransition(byte* data, int length);

    // The runtime pins a blittable array argument for the duration of the call.
    [DllImport(InteropLibrary.Name, EntryPoint = "berth_send")]
    public static extern uint SendArrayDllImport(byte[] data, int length);
}
