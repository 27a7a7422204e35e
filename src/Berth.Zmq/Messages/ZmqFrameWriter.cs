using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Berth.Zmq;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> whose bytes become a ZeroMQ frame without a copy: it writes into one native
/// block and <see cref="MoveTo"/> hands that block to a <see cref="ZmqMessage"/> (<c>zmq_msg_init_data</c>), which
/// frees it once sent. Berth's <c>PacketWriter</c> writes packets straight into it. Bounded by
/// <see cref="MaxFrameSize"/>; not thread-safe.
/// </summary>
public sealed unsafe class ZmqFrameWriter : IBufferWriter<byte>, IDisposable
{
    private const int MinimumCapacity = 256;

    private readonly NativeBlockMemory _memory = new();
    private byte* _block;
    private int _capacity;
    private int _written;
    private int _lastFrameSize;

    /// <summary>Creates a writer for frames of at most <paramref name="maxFrameSize"/> bytes.</summary>
    /// <param name="maxFrameSize">The largest frame this writer builds; writing more throws.</param>
    public ZmqFrameWriter(int maxFrameSize = 1024 * 1024)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxFrameSize, 1);
        MaxFrameSize = maxFrameSize;
    }

    /// <summary>Releases the block if <see cref="Dispose"/> was never called.</summary>
    ~ZmqFrameWriter() => Free();

    /// <summary>The largest frame this writer builds.</summary>
    public int MaxFrameSize { get; }

    /// <summary>Bytes written since the last <see cref="MoveTo"/> or <see cref="Reset"/>.</summary>
    public int WrittenCount => _written;

    /// <summary>The bytes written so far.</summary>
    public ReadOnlySpan<byte> WrittenSpan => new(_block, _written);

    /// <inheritdoc />
    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, _capacity - _written);
        _written += count;
    }

    /// <inheritdoc />
    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Reserve(sizeHint);
        return new Span<byte>(_block + _written, _capacity - _written);
    }

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Reserve(sizeHint);
        return _memory.Over(_block, _capacity).Slice(_written);
    }

    /// <summary>
    /// Makes <paramref name="message"/> the frame written so far, without copying, and starts a new frame.
    /// The block now belongs to libzmq, which frees it (from its I/O thread) once the frame is sent or closed.
    /// </summary>
    /// <param name="message">The message to hold the frame; its previous content is released.</param>
    public void MoveTo(ZmqMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        ObjectDisposedException.ThrowIf(_memory.IsDisposed, this);
        if (_written == 0)
        {
            message.Clear();
            return;
        }

        message.InitNative(_block, (nuint)_written, &FreeBlock, 0);
        _lastFrameSize = _written;
        _block = null;
        _capacity = 0;
        _written = 0;
    }

    /// <summary>Discards what was written, keeping the block for the next frame.</summary>
    public void Reset() => _written = 0;

    /// <summary>Frees the block of an unfinished frame.</summary>
    public void Dispose()
    {
        Free();
        ((IDisposable)_memory).Dispose();
        GC.SuppressFinalize(this);
    }

    private void Reserve(int sizeHint)
    {
        ObjectDisposedException.ThrowIf(_memory.IsDisposed, this);
        ArgumentOutOfRangeException.ThrowIfNegative(sizeHint);
        var needed = (long)_written + Math.Max(sizeHint, 1);
        if (needed <= _capacity)
        {
            return;
        }

        if (needed > MaxFrameSize)
        {
            throw new InvalidOperationException($"a ZeroMQ frame of more than {MaxFrameSize} bytes (MaxFrameSize) was written");
        }

        // Each frame gets a new block (the last one went to libzmq); starting it at the last frame's size saves the
        // doubling copies when consecutive frames are alike, which the packet benchmark showed dominating at 64 KB.
        var grown = _block == null ? Math.Max(MinimumCapacity, _lastFrameSize) : (long)_capacity * 2;
        var capacity = (int)Math.Min(MaxFrameSize, Math.Max(needed, grown));
        _block = (byte*)NativeMemory.Realloc(_block, (nuint)capacity);
        _capacity = capacity;
    }

    private void Free()
    {
        NativeMemory.Free(_block);
        _block = null;
        _capacity = 0;
        _written = 0;
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void FreeBlock(nint data, nint hint) => NativeMemory.Free((void*)data);

    /// <summary>Exposes the current native block as <see cref="Memory{T}"/>; one instance reused for every block.</summary>
    private sealed class NativeBlockMemory : MemoryManager<byte>
    {
        private byte* _pointer;
        private int _length;

        public bool IsDisposed { get; private set; }

        public Memory<byte> Over(byte* pointer, int length)
        {
            _pointer = pointer;
            _length = length;
            return Memory;
        }

        public override Span<byte> GetSpan() => new(_pointer, _length);

        public override MemoryHandle Pin(int elementIndex = 0) => new(_pointer + elementIndex);

        public override void Unpin()
        {
        }

        protected override void Dispose(bool disposing) => IsDisposed = true;
    }
}
