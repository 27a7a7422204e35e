using System.Globalization;

namespace ZmqBroker;

/// <summary>
/// What every process of a run reported, kept by request id: which workers took each request, which replies its
/// client accepted, and what went wrong. Lines arrive from several reader threads at once, so every entry point locks.
/// </summary>
internal sealed class Ledger(RunOptions options)
{
    private readonly Lock _sync = new();
    private readonly Dictionary<string, List<string>> _takenBy = [];
    private readonly Dictionary<string, List<(string Worker, int Attempt)>> _answers = [];
    private readonly HashSet<string> _abandoned = [];
    private readonly List<string> _problems = [];
    private int _timeouts;
    private int _duplicates;
    private Kill? _kill;

    public void Record(string process, string[] fields)
    {
        lock (_sync)
        {
            switch (fields)
            {
                case [Protocol.Took, var id]:
                    Entry(_takenBy, id).Add(process);
                    break;
                case [Protocol.Stalled, _]:
                    break;
                case [Protocol.Answered, var id, var worker, var attempt]:
                    Entry(_answers, id).Add((worker, int.Parse(attempt, CultureInfo.InvariantCulture)));
                    break;
                case [Protocol.Duplicate, _, _]:
                    _duplicates++;
                    break;
                case [Protocol.Timeout, _, _]:
                    _timeouts++;
                    break;
                case [Protocol.Abandoned, var id]:
                    _abandoned.Add(id);
                    break;
                default:
                    _problems.Add($"{process} printed \"{string.Join(' ', fields)}\"");
                    break;
            }
        }
    }

    public void RecordKill(string worker, int processId, string heldRequest)
    {
        lock (_sync)
        {
            _kill = new Kill(worker, processId, heldRequest);
        }
    }

    public bool WasKilled(string worker)
    {
        lock (_sync)
        {
            return _kill?.Worker == worker;
        }
    }

    public void RecordExit(string process, int? exitCode)
    {
        lock (_sync)
        {
            if (exitCode is not 0)
            {
                _problems.Add(exitCode is { } code ? $"{process} exited with {code}" : $"{process} did not exit");
            }
        }
    }

    /// <summary>Prints the ledger and, last, the verdict line.</summary>
    /// <returns>Whether every request was answered to its caller exactly once and the planned kill happened.</returns>
    public bool Print(TextWriter output)
    {
        lock (_sync)
        {
            var requests = RequestIds().ToList();
            var once = requests.Count(id => AnswerCount(id) == 1);
            var unanswered = requests.Where(id => AnswerCount(id) == 0).ToList();
            var twice = requests.Where(id => AnswerCount(id) > 1).ToList();
            var processedTwice = _takenBy.Where(entry => entry.Value.Count > 1).Select(entry => entry.Key).Order(StringComparer.Ordinal).ToList();

            output.WriteLine($"ledger: {requests.Count} requests from {options.Clients} clients through one broker to {options.Workers} workers");
            output.WriteLine($"  answered exactly once: {once}");
            output.WriteLine($"  answered more than once: {twice.Count}");
            output.WriteLine($"  unanswered: {unanswered.Count}");
            output.WriteLine($"  resent after a timeout: {_timeouts}");
            output.WriteLine($"  duplicate replies dropped by clients: {_duplicates}");
            output.WriteLine($"  taken by workers: {_takenBy.Values.Sum(list => list.Count)} ({PerWorker(_takenBy.Values.SelectMany(list => list))})");
            output.WriteLine($"  answered by workers: {PerWorker(_answers.Values.SelectMany(list => list.Select(answer => answer.Worker)))}");
            output.WriteLine($"  processed twice by workers: {processedTwice.Count}");
            if (_kill is { } kill)
            {
                // Counts, not clocks: the victim answered before it stalled, and its client went on after the held request.
                var answeredByVictim = _answers.Values.Sum(list => list.Count(answer => answer.Worker == kill.Worker));
                var heldNumber = int.Parse(kill.HeldRequest[(kill.HeldRequest.LastIndexOf('-') + 1)..], CultureInfo.InvariantCulture);
                output.WriteLine($"  killed: {kill.Worker} (pid {kill.ProcessId}) with SIGKILL holding {kill.HeldRequest}, after answering {answeredByVictim}");
                output.WriteLine($"  requests sent after the held one by its client: {options.Requests - heldNumber}");
            }

            foreach (var id in requests.Where(id => Taken(id).Count > 1 || _answers.GetValueOrDefault(id)?.Any(answer => answer.Attempt > 1) == true))
            {
                var answers = _answers.GetValueOrDefault(id) ?? [];
                var answered = answers.Count == 0 ? "never answered" : string.Join(", ", answers.Select(answer => $"answered by {answer.Worker} on attempt {answer.Attempt}"));
                output.WriteLine($"  {id}: taken by {(Taken(id).Count == 0 ? "no worker" : string.Join(", ", Taken(id)))}; {answered}");
            }

            var failures = new List<string>(_problems);
            failures.AddRange(unanswered.Select(id => _abandoned.Contains(id) ? $"{id} abandoned" : $"{id} unanswered"));
            failures.AddRange(twice.Select(id => $"{id} answered {AnswerCount(id)} times"));
            if (options.StallAt > 0 && _kill is null)
            {
                failures.Add("no worker was killed");
            }

            foreach (var problem in failures)
            {
                output.WriteLine($"  problem: {problem}");
            }

            output.WriteLine(failures.Count == 0
                ? $"broker ok: {requests.Count} requests answered exactly once, {processedTwice.Count} processed twice by workers"
                : $"broker FAILED: {failures.Count} problems");
            return failures.Count == 0;
        }
    }

    private IEnumerable<string> RequestIds() =>
        Enumerable.Range(1, options.Clients).SelectMany(client =>
            Enumerable.Range(1, options.Requests).Select(number => Protocol.RequestId(Protocol.ClientName(client), number)));

    private int AnswerCount(string id) => _answers.GetValueOrDefault(id)?.Count ?? 0;

    private List<string> Taken(string id) => _takenBy.GetValueOrDefault(id) ?? [];

    private static string PerWorker(IEnumerable<string> workers) =>
        string.Join(", ", workers.GroupBy(worker => worker).OrderBy(group => group.Key, StringComparer.Ordinal).Select(group => $"{group.Key} {group.Count()}"));

    private static List<T> Entry<T>(Dictionary<string, List<T>> entries, string id)
    {
        if (!entries.TryGetValue(id, out var list))
        {
            list = [];
            entries.Add(id, list);
        }

        return list;
    }

    private sealed record Kill(string Worker, int ProcessId, string HeldRequest);
}
