using Berth.Results;

namespace Berth.Results.Reports;

/// <summary>
/// A column: its title as printed ("p99 µs"), its key as a JSON field name ("p99Microseconds"), and how its numbers
/// print in a result file (a column of repeated values becomes a range in that format).
/// </summary>
internal sealed record ReportColumn(string Key, string Title, CellFormat Format);
