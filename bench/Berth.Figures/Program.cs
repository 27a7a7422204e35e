using Berth.Results;
using Berth.Results.Reports;

// Re-renders every generated block of README.md and docs/**/*.md from its result file (docs/RESULTS.md), or writes
// one result file as a self-contained HTML page.
//   Berth.Figures render [--check] [--root DIR]
//   Berth.Figures html RESULT.json PAGE.html TITLE
// --check writes nothing and exits 1 when a document would change or a block cannot be rendered.
const string usage = "usage: Berth.Figures render [--check] [--root DIR] | Berth.Figures html RESULT.json PAGE.html TITLE";
var check = false;
var root = Directory.GetCurrentDirectory();
if (args is ["html", var resultPath, var pagePath, var title])
{
    try
    {
        HtmlReportWriter.Write(pagePath, ResultFileReport.From(ResultFileReader.Read(resultPath), title));
        Console.WriteLine($"wrote {pagePath}");
        return 0;
    }
    catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException)
    {
        Console.Error.WriteLine($"error: {e.Message}");
        return 1;
    }
}

if (args.Length == 0 || args[0] != "render")
{
    Console.Error.WriteLine(usage);
    return 2;
}

for (var i = 1; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--check":
            check = true;
            break;
        case "--root" when i + 1 < args.Length:
            root = Path.GetFullPath(args[++i]);
            break;
        default:
            Console.Error.WriteLine($"unknown option {args[i]}\n{usage}");
            return 2;
    }
}

var outcome = DocsRendering.Run(root, check);
foreach (var error in outcome.Errors)
{
    Console.Error.WriteLine($"error: {error}");
}

foreach (var document in outcome.Changed)
{
    Console.WriteLine(check ? $"differs from its data: {document}" : $"rendered: {document}");
}

if (check && (outcome.Changed.Count > 0 || outcome.Errors.Count > 0))
{
    Console.Error.WriteLine("generated figures are out of date or broken: run bash scripts/render-docs.sh and commit the result");
    return 1;
}

return outcome.Errors.Count > 0 ? 1 : 0;
