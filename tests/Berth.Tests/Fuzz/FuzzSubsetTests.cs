using Berth.Fuzz;
using Berth.Fuzz.Messages;

namespace Berth.Tests.Fuzz;

/// <summary>
/// A fixed-seed slice of the fuzz runner (tests/Berth.Fuzz), so that every build replays the same few thousand cases
/// per target: any failed check, unexpected exception or allocation beyond what the API documents fails the test.
/// </summary>
public class FuzzSubsetTests
{
    private const long Cases = 5_000;
    private const long WarmUpCases = 1_000;

    [Fact]
    public void Frame_decoder_holds_for_every_layout_and_preset() => AssertHeld(new FrameDecoderTarget());

    [Fact]
    public void Packet_reader_holds_over_spans_and_segments() => AssertHeld(new PacketReaderTarget());

    [Fact]
    public void Proxy_header_parser_holds_contiguous_and_segmented() => AssertHeld(new ProxyHeaderTarget());

    [Fact]
    public void Generated_reader_of_a_fixed_width_struct_holds_and_allocates_only_when_it_fails() => AssertHeld(MessageTargets.Move());

    [Fact]
    public void Generated_reader_of_strings_bytes_collections_and_optionals_holds_within_its_allocation_bound() => AssertHeld(MessageTargets.Chat());

    [Fact]
    public void Generated_reader_of_a_recursive_contract_holds_within_its_depth_bound() => AssertHeld(MessageTargets.Tree());

    [Fact]
    public void Every_layout_and_preset_is_fuzzed()
    {
        var names = new FrameDecoderTarget().Variants.Select(v => v.Name).ToList();
        Assert.Contains("preset Berth", names);
        Assert.Contains("preset FastPortSharp", names);
        Assert.Contains("preset Telepathy", names);
        Assert.Equal(3 + (2 * 2 * 2 * 6), names.Count);
    }

    private static void AssertHeld(IFuzzTarget target)
    {
        var report = FuzzEngine.Run(target, Cases, seed: 1, WarmUpCases);
        Assert.True(report.Failed == 0, string.Join(Environment.NewLine, report.Failures.Prepend(report.ToString())));
        Assert.Equal(0, report.AllocatingCases);
    }
}
