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
        AssertNothingPerMessage(count => RoundTrips(output, count));
    }

    [Fact]
    public void A_struct_copied_as_one_block_costs_nothing_per_message()
    {
        var output = new ArrayBufferWriter<byte>(64);
        AssertNothingPerMessage(count => BlockRoundTrips(output, count));
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

    /// <summary>
    /// After a warm-up, N and 10N round trips must allocate totals that differ by less than <see cref="Constant"/>. A
    /// difference over it is measured once more before it fails the test: an allocation per message shows in every
    /// measurement, while what the runtime did once on this thread meanwhile (a method reaching its optimized code late
    /// on a busy machine: 5 KB in the N run and nothing in the 10N one, in one CI run) does not.
    /// </summary>
    private static void AssertNothingPerMessage(Action<int> roundTrips)
    {
        roundTrips(1000);
        var (once, tenTimes) = (AllocatedBy(roundTrips, N), AllocatedBy(roundTrips, 10 * N));
        if (Math.Abs(tenTimes - once) >= Constant)
        {
            (once, tenTimes) = (AllocatedBy(roundTrips, N), AllocatedBy(roundTrips, 10 * N));
        }

        Assert.True(Math.Abs(tenTimes - once) < Constant, $"{N} messages allocated {once} B, {10 * N} allocated {tenTimes} B");
    }

    private static long AllocatedBy(Action<int> roundTrips, int count)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        roundTrips(count);
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
