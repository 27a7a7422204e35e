using System.Runtime.InteropServices;

namespace Berth.Zmq.Native;

/// <summary>
/// <c>zmq_pollitem_t</c> items in native memory, laid out for the running OS: <c>zmq_fd_t</c> is a pointer-sized
/// <c>SOCKET</c> on Windows and an <c>int</c> elsewhere, which moves the event fields. Grows, never shrinks.
/// </summary>
internal sealed unsafe class PollItemArray : IDisposable
{
    private static readonly int FdSize = OperatingSystem.IsWindows() ? sizeof(nint) : sizeof(int);
    private static readonly int EventsOffset = sizeof(nint) + FdSize;
    private static readonly int Stride = (EventsOffset + (2 * sizeof(short)) + sizeof(nint) - 1) & ~(sizeof(nint) - 1);

    private byte* _items;

    public PollItemArray(int capacity)
    {
        Capacity = capacity;
        _items = (byte*)NativeMemory.AllocZeroed((nuint)(capacity * Stride));
    }

    public int Capacity { get; private set; }

    /// <summary>The first item, for <c>zmq_poll</c>.</summary>
    public void* Pointer => _items;

    public void EnsureCapacity(int capacity)
    {
        if (capacity <= Capacity)
        {
            return;
        }

        var grown = Math.Max(capacity, Capacity * 2);
        _items = (byte*)NativeMemory.Realloc(_items, (nuint)(grown * Stride));
        Capacity = grown;
    }

    /// <summary>Sets item <paramref name="index"/> to watch raw descriptor <paramref name="fd"/> for input.</summary>
    public void SetInput(int index, nint fd)
    {
        var item = _items + (index * Stride);
        *(nint*)item = 0;
        if (FdSize == sizeof(int))
        {
            *(int*)(item + sizeof(nint)) = (int)fd;
        }
        else
        {
            *(nint*)(item + sizeof(nint)) = fd;
        }

        *(short*)(item + EventsOffset) = (short)ZmqPollEvents.In;
        *(short*)(item + EventsOffset + sizeof(short)) = 0;
    }

    public bool IsReady(int index) => *(short*)(_items + (index * Stride) + EventsOffset + sizeof(short)) != 0;

    public void Dispose()
    {
        NativeMemory.Free(_items);
        _items = null;
    }
}
