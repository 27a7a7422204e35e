using Berth.Results;

namespace Berth.Tests.Results;

public sealed class GeneratedBlocksTests : IDisposable
{
    private const string Block = "<!-- generated: docs/data/tcp/compare.json#throughput -->";

    private readonly string root = Directory.CreateTempSubdirectory("berth-figures-").FullName;

    public void Dispose() => Directory.Delete(root, recursive: true);

    [Fact]
    public void A_block_is_filled_from_its_data_file_and_the_text_around_it_is_kept()
    {
        WriteData("docs/data/tcp/compare.json", Sample());
        var before = "# Title\r\n\nText before.\n" + Block + "\nstale figures\n" + GeneratedBlocks.EndMarker + "\nText after.\n";
        WriteText("docs/TCP.md", before);

        var outcome = DocsRendering.Run(root, check: false);

        Assert.Empty(outcome.Errors);
        Assert.Equal(["docs/TCP.md"], outcome.Changed);
        var after = ReadText("docs/TCP.md");
        Assert.StartsWith("# Title\r\n\nText before.\n" + Block + "\nMeasured 2026-11-24 08:50 UTC at commit `abc1234def56`", after, StringComparison.Ordinal);
        Assert.EndsWith(GeneratedBlocks.EndMarker + "\nText after.\n", after, StringComparison.Ordinal);
        Assert.DoesNotContain("stale figures", after, StringComparison.Ordinal);
        Assert.Contains("| workload | Berth msg/s | ratio | spread | verdict |", after, StringComparison.Ordinal);
        Assert.Contains("| 64 B x 100 | 935K | 0.97x | 1.23M (1.10M–1.40M) | met |", after, StringComparison.Ordinal);
        Assert.Contains("Data: [docs/data/tcp/compare.json](data/tcp/compare.json).", after, StringComparison.Ordinal);
        Assert.Contains("busy (quiet means under 5.00%)", after, StringComparison.Ordinal);
        Assert.Contains("\nA note under the table.\n", after, StringComparison.Ordinal);
    }

    [Fact]
    public void Check_reports_a_stale_block_without_writing_and_passes_once_rendered()
    {
        WriteData("docs/data/tcp/compare.json", Sample());
        var stale = Block + "\nstale\n" + GeneratedBlocks.EndMarker + "\n";
        WriteText("README.md", stale);

        var check = DocsRendering.Run(root, check: true);

        Assert.Equal(["README.md"], check.Changed);
        Assert.Equal(stale, ReadText("README.md"));

        DocsRendering.Run(root, check: false);
        var again = DocsRendering.Run(root, check: true);

        Assert.Empty(again.Changed);
        Assert.Empty(again.Errors);
    }

    [Fact]
    public void A_block_naming_a_missing_file_or_table_is_an_error()
    {
        WriteData("docs/data/tcp/compare.json", Sample());
        WriteText(
            "docs/A.md",
            "<!-- generated: docs/data/tcp/none.json#throughput -->\n" + GeneratedBlocks.EndMarker + "\n" +
            "<!-- generated: docs/data/tcp/compare.json#latency -->\n" + GeneratedBlocks.EndMarker + "\n");

        var outcome = DocsRendering.Run(root, check: true);

        Assert.Equal(2, outcome.Errors.Count);
        Assert.Contains("docs/A.md:1: docs/data/tcp/none.json: no such result file", outcome.Errors);
        Assert.Contains("docs/A.md:3: docs/data/tcp/compare.json has no table \"latency\"", outcome.Errors);
    }

    [Theory]
    [InlineData("commit")]
    [InlineData("machine")]
    [InlineData("loadAtStart")]
    [InlineData("otherCpuShare")]
    [InlineData("quiet")]
    [InlineData("command")]
    [InlineData("source")]
    public void A_data_file_lacking_a_provenance_field_is_an_error(string field)
    {
        WriteData("docs/data/tcp/compare.json", Sample());
        var path = Path.Combine(root, "docs/data/tcp/compare.json");
        var json = System.Text.Json.Nodes.JsonNode.Parse(File.ReadAllText(path))!;
        json["provenance"]!.AsObject().Remove(field);
        File.WriteAllText(path, json.ToJsonString());
        WriteText("docs/A.md", Block + "\n" + GeneratedBlocks.EndMarker + "\n");

        var outcome = DocsRendering.Run(root, check: true);

        var error = Assert.Single(outcome.Errors);
        Assert.Contains($"provenance lacks {field}", error, StringComparison.Ordinal);
    }

    [Fact]
    public void A_run_called_quiet_with_other_cpu_use_above_the_threshold_is_an_error()
    {
        WriteData("docs/data/tcp/compare.json", Sample());
        var path = Path.Combine(root, "docs/data/tcp/compare.json");
        File.WriteAllText(path, File.ReadAllText(path).Replace("\"quiet\": false", "\"quiet\": true", StringComparison.Ordinal));
        WriteText("docs/A.md", Block + "\n" + GeneratedBlocks.EndMarker + "\n");

        var error = Assert.Single(DocsRendering.Run(root, check: true).Errors);

        Assert.Contains("quiet", error, StringComparison.Ordinal);
    }

    [Fact]
    public void An_unclosed_block_is_an_error()
    {
        WriteData("docs/data/tcp/compare.json", Sample());
        WriteText("docs/A.md", Block + "\ntext\n");

        var error = Assert.Single(DocsRendering.Run(root, check: true).Errors);

        Assert.StartsWith("docs/A.md:1: generated block is not closed", error, StringComparison.Ordinal);
    }

    [Fact]
    public void Written_files_read_back_as_written()
    {
        WriteData("docs/data/a.json", Sample());

        var read = ResultFileReader.Read(Path.Combine(root, "docs/data/a.json"));

        Assert.Equal(Sample().Provenance with { LoadAtStart = null }, read.Provenance with { LoadAtStart = null });
        Assert.Equal([0.12, 0.3, 0.41], read.Provenance.LoadAtStart);
        var table = Assert.Single(read.Tables);
        Assert.Equal(Sample().Tables[0].Rows[0], table.Rows[0]);
    }

    [Theory]
    [InlineData("count", 1_234_567, "1.23M")]
    [InlineData("count", 456_300, "456K")]
    [InlineData("count", 999, "999")]
    [InlineData("int", 1_234_567, "1,234,567")]
    [InlineData("ratio", 0.973, "0.97x")]
    [InlineData("percent", 0.0123, "1.23%")]
    [InlineData("ns", 12.34, "12.3 ns")]
    [InlineData("us", 1234.5, "1,235 µs")]
    [InlineData("ms", 1.5, "1.50 ms")]
    [InlineData("bytes", 1536, "1.50 KiB")]
    [InlineData("bytes", 1 << 20, "1.00 MiB")]
    [InlineData("bytes", 12, "12 B")]
    [InlineData("bytes", 0.002, "0.002 B")]
    [InlineData("ns", 0.5, "0.5 ns")]
    public void Numbers_print_as_their_format_says(string format, double value, string expected) =>
        Assert.Equal(expected, CellText.Format(value, CellFormatNames.Parse(format)));

    private static ResultFile Sample() => new(
        new Provenance(
            new DateTimeOffset(2026, 11, 24, 8, 50, 0, TimeSpan.Zero),
            "abc1234def567890",
            false,
            "AMD EPYC, 2 vCPU",
            [0.12, 0.30, 0.41],
            0.2,
            Provenance.IsQuiet(0.2),
            "berth bench --compare --quick",
            null),
        [
            new ResultTable(
                "throughput",
                null,
                [
                    new ResultColumn("workload", CellFormat.Text),
                    new ResultColumn("Berth msg/s", CellFormat.Count),
                    new ResultColumn("ratio", CellFormat.Ratio),
                    new ResultColumn("spread", CellFormat.Range),
                    new ResultColumn("verdict", CellFormat.Verdict),
                ],
                [["64 B x 100", 935_000.0, 0.97, new ResultRange(1_100_000, 1_230_000, 1_400_000, CellFormat.Count), "met"]],
                ["A note under the table."]),
        ]);

    private void WriteData(string relative, ResultFile file) => ResultFileWriter.Write(Path.Combine(root, relative), file);

    private void WriteText(string relative, string text)
    {
        var path = Path.Combine(root, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text);
    }

    private string ReadText(string relative) => File.ReadAllText(Path.Combine(root, relative));
}
