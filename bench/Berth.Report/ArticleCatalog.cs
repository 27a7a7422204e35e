namespace Berth.Report;

/// <summary>
/// The order and titles of the benchmark classes that reproduce the source articles' tables. Any
/// class not listed here still appears, under "Other benchmarks", with its own name.
/// </summary>
internal static class ArticleCatalog
{
    public const string NativePart = "Native memory and interop";
    public const string TcpPart = "TCP framework building blocks";

    private const string Native = "Berth.Benchmarks.Articles.NativeInterop.";
    private const string Tcp = "Berth.Benchmarks.Articles.TcpFramework.";
    private const string Core = "Berth.Benchmarks.Core.";

    public static IReadOnlyList<ArticleSection> Sections { get; } =
    [
        new(NativePart, Native + "AllocationBenchmarks", "Allocation method by size",
            "One allocation and its release per operation (the article: \"Native Memory Allocation Methods\", 10,000-iteration totals)."),
        new(NativePart, Native + "PinningBenchmarks", "Pinning a managed array",
            "Obtaining a stable pointer to a managed array, per operation (the article: \"Pinning Benchmark\"). MemoryMarshal.GetReference does not pin; it is listed because the article lists it."),
        new(NativePart, Native + "ManagedToNativeCopyBenchmarks", "Managed → native copies",
            "One copy of a managed array into a native buffer allocated once, per operation (the article: \"Managed → Native Data Transfer\")."),
        new(NativePart, Native + "NativeSendBenchmarks", "Pin vs copy: native code reads the buffer (send)",
            "berth_send (a checksum over every byte) from the gcc-built bench/native/interop library, per call: copy into native memory first, or pass the managed memory pinned."),
        new(NativePart, Native + "NativeTransformBenchmarks", "Pin vs copy: native code modifies the buffer in place (transform)",
            "berth_transform (XOR in place), per call: copy in and back out, or pass the pinned managed array."),
        new(NativePart, Native + "NativeRecvBenchmarks", "Pin vs copy: native code fills the buffer (recv)",
            "berth_recv (fill), per call: fill native memory and copy out, or let native code write into the pinned managed array."),
        new(NativePart, Native + "InteropTransitionBenchmarks", "The fixed cost of a tiny native call",
            "A 64-byte checksum already in native memory, per call: DllImport against LibraryImport, with and without [SuppressGCTransition]."),
        new(TcpPart, Core + "ReceiveBufferBenchmarks", "Receive buffer: write a block, read it out, drop it",
            "One received block per operation (the article's CircularBuffer write/read rows and its CircularBuffer vs QueueBuffer table): the article's circular buffer (baseline), its queue of bytes, Berth's pooled RingBuffer and a Pipe."),
        new(TcpPart, Core + "ReceiveGrowthBenchmarks", "Receive buffer: ten writes past capacity",
            "Ten 4 KB writes into a 4 KB buffer, then drained, per operation (the article's 442 KB \"Write x10\" row): the article's buffer growing with new arrays (baseline), Berth's ring growing from its pool and trimmed back, and a Pipe chaining segments."),
        new(TcpPart, Core + "FrameParseBenchmarks", "Parsing ten frames",
            "Ten 64-byte frames split off received bytes, per operation (the article's 1,864 B \"TryGetBasePackets\" row): the article's LINQ parser (baseline) against FrameDecoder in place over Berth's ring and over a Pipe."),
        new(TcpPart, Core + "PacketBuilderBenchmarks", "Packet builder: fourteen integer fields",
            "The zero-allocation writer article's case, appends only: List<byte> + BitConverter (baseline), the article's GetSpan/Advance per field, and PacketWriter over an ArrayBufferWriter and over pooled segments (renting and returning an array per packet)."),
        new(TcpPart, Core + "PacketStringBenchmarks", "Packet builder: a 65-character ASCII string",
            "The same article's string case: List<byte> + Encoding.ASCII (baseline), GetSpan/Advance around Encoding.ASCII, and PacketWriter's fixed-length ASCII field."),
        new(TcpPart, Tcp + "ChannelVsBufferBlockBenchmarks", "Channel vs TPL Dataflow BufferBlock",
            "A producer moving a batch of messages to a consumer through a queue created per batch (the article's Channel vs BufferBlock table). One operation is one batch; the last column divides by the batch size.",
            "MessageCount"),
        new(TcpPart, Tcp + "LockBenchmarks", "Lock kinds, one thread",
            "One increment of a shared counter under each lock, uncontended, per increment (the article's lock table)."),
        new(TcpPart, Tcp + "ContendedLockBenchmarks", "Lock kinds, two threads contending",
            "The same increments with two threads on one counter, per increment, on the machine's two cores."),
        new(TcpPart, Tcp + "ArrayPoolVsNewBenchmarks", "ArrayPool.Rent vs new byte[]",
            "Getting a buffer and giving it back, per buffer (the article's \"배열 할당 비교\")."),
        new(TcpPart, Tcp + "CopyMethodBenchmarks", "Copy methods at 4 KB",
            "One 4 KB managed copy, per copy; the two allocating rows reproduce the article's setup, where each copy also allocated its destination."),
        new(TcpPart, Tcp + "IntegerReadBenchmarks", "Integer read conversion",
            "Reading a 16-bit field, per read. The Folded rows reproduce the article's 0.11 ns: a constant the JIT evaluates at compile time."),
        new(TcpPart, Tcp + "IntegerWriteBenchmarks", "Integer write conversion",
            "Writing a 16-bit field, per write. StackAllocDiscarded reproduces the article's \"BinaryPrimitives (stackalloc)\" row, whose result is never read."),
        new(TcpPart, Tcp + "PacketCreationBenchmarks", "Packet creation and parsing",
            "Building one framed packet (u16 size, u16 id, body) and reading its body back, per packet: the article's allocating packet with LINQ parsing against a pooled writer and slicing."),
        new(TcpPart, Tcp + "PacketBatchBenchmarks", "100 packets of 64 B",
            "The article's \"Create 100 Packets\", per packet: 100 allocating packets against 100 packets written back to back into one pooled send buffer."),
    ];
}
