namespace Berth.Tests.Messages;

/// <summary>
/// ProfileV1 and ProfileV2 are two versions of one contract: V2 adds two trailing fields. The outermost message
/// tolerates skew both ways.
/// </summary>
public class VersionSkewTests
{
    [Fact]
    public void An_older_reader_ignores_the_trailing_fields_a_newer_writer_added()
    {
        var body = MessageBytes.Encode(new ProfileV2 { Level = 12, Name = "ada", Score = 99, Badges = [1, 2, 3] });

        var read = MessageBytes.Decode<ProfileV1>(body);

        Assert.Equal(12, read.Level);
        Assert.Equal("ada", read.Name);
    }

    [Fact]
    public void A_newer_reader_gives_the_fields_an_older_writer_did_not_know_their_defaults()
    {
        var body = MessageBytes.Encode(new ProfileV1 { Level = 3, Name = "bob" });

        var read = MessageBytes.Decode<ProfileV2>(body);

        Assert.Equal(3, read.Level);
        Assert.Equal("bob", read.Name);
        Assert.Equal(0, read.Score);
        Assert.Empty(read.Badges);
    }

    [Fact]
    public void An_empty_body_reads_as_a_message_of_defaults()
    {
        var read = MessageBytes.Decode<ProfileV2>([]);

        Assert.Equal(0, read.Level);
        Assert.Equal("", read.Name);
        Assert.Empty(read.Badges);
    }

    [Fact]
    public void A_body_cut_inside_a_field_is_still_rejected()
    {
        var body = MessageBytes.Encode(new ProfileV2 { Level = 1, Name = "x", Score = 5, Badges = [] });

        var error = MessageBytes.Reject<ProfileV2>(body[..^3]);

        Assert.Equal("ProfileV2.Score", error.Field);
        Assert.Equal(6, error.Offset);
    }
}
