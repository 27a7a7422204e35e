using System.Buffers;
using Berth.Buffers;
using Berth.Messages;

namespace Berth.Tests.Messages;

/// <summary>
/// The allocation rule for message code: writing and reading N messages and 10N messages allocate totals that differ
/// by less than a constant independent of N, so nothing is allocated per message; strings and arrays cost exactly
/// their own objects. Counted on this thread only (the codec runs on it alone), so other tests running at the same
/// time add nothing and the constant can be far below the process-wide <see cref="Connections.AllocationGrowth.Allowance"/>.
/// </summary>
public class AllocationTests
{
    private const int N = 10_000;
    private const long Constant = 1024;

    [Fact]
    public void A_struct_of_fixed_width_fields_costs_nothing_per_message()
    {
        // A plain array output: the pooled writers hand memory back on a clock, which would blur what is measured.
        var output = new ArrayBufferWriter<byte>(64);
        RoundTrips(output, 1000);

        var once = Measure(output, N);
        var tenTimes = Measure(output, 10 * N);

        Assert.True(Math.Abs(tenTimes - once) < Constant, $"{N} messages allocated {once} B, {10 * N} allocated {tenTimes} B");
    }

    [Fact]
    public void A_struct_copied_as_one_block_costs_nothing_per_message()
    {
        var output = new ArrayBufferWriter<byte>(64);
        BlockRoundTrips(output, 1000);

        var before = GC.GetAllocatedBytesForCurrentThread();
        BlockRoundTrips(output, N);
        var once = GC.GetAllocatedBytesForCurrentThread() - before;
        before = GC.GetAllocatedBytesForCurrentThread();
        BlockRoundTrips(output, 10 * N);
        var tenTimes = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.True(Math.Abs(tenTimes - once) < Constant, $"{N} messages allocated {once} B, {10 * N} allocated {tenTimes} B");
    }

    [Fact]
    public void Reading_a_string_and_an_array_allocates_exactly_those_two_objects()
    {
        var body = MessageBytes.Encode(new ProfileV2 { Level = 1, Name = "twelve chars", Score = 2, Badges = [1, 2, 3] });
        MessageBytes.Decode<ProfileV2>(body);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var read = MessageBytes.Decode<ProfileV2>(body);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(OwnObjects(read), allocated);
    }

    /// <summary>What allocating the message's own string and list (with its array) costs, measured the same way.</summary>
    private static long OwnObjects(in ProfileV2 read)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        var name = new string('x', read.Name.Length);
        var badges = new List<int>(read.Badges.Count);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        GC.KeepAlive(name);
        GC.KeepAlive(badges);
        return allocated;
    }

    private static long Measure(ArrayBufferWriter<byte> output, int count)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        RoundTrips(output, count);
        return GC.GetAllocatedBytesForCurrentThread() - before;
    }

    private static void BlockRoundTrips(ArrayBufferWriter<byte> output, int count)
    {
        long checksum = 0;
        for (var i = 0; i < count; i++)
        {
            output.ResetWrittenCount();
            var writer = new PacketWriter(output);
            BlockPosition.Write(ref writer, new BlockPosition { Id = i, X = i, Facing = (Direction)(i & 3), Tick = i, Speed = -i });
            writer.Flush();
            var reader = new PacketReader(output.WrittenSpan);
            checksum += BlockPosition.Read(ref reader).Tick;
        }

        Assert.Equal((long)count * (count - 1) / 2, checksum);
    }

    private static void RoundTrips(ArrayBufferWriter<byte> output, int count)
    {
        long checksum = 0;
        for (var i = 0; i < count; i++)
        {
            output.ResetWrittenCount();
            var writer = new PacketWriter(output);
            Move.Write(ref writer, new Move { PlayerId = i, X = i, Y = -i, Facing = (Direction)(i & 3), Tick = i });
            writer.Flush();
            var reader = new PacketReader(output.WrittenSpan);
            checksum += Move.Read(ref reader).Tick;
        }

        Assert.Equal((long)count * (count - 1) / 2, checksum);
    }
}
