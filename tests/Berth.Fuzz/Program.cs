using Berth.Fuzz;
using Berth.Fuzz.Messages;

// Usage: Berth.Fuzz [--cases N] [--seed S] [--target decoder|reader|proxy|message-move|message-chat|message-tree|all] [--warm-up N] [--replay CASE_SEED] [--afl]
// With --afl the one target runs under AFL++ (coverage-guided, see docs/RELIABILITY.md) instead of from a seed.
var options = FuzzOptions.Parse(args);
Func<IFuzzTarget>[] factories = options.Target switch
{
    "decoder" => [() => new FrameDecoderTarget()],
    "reader" => [() => new PacketReaderTarget()],
    "proxy" => [() => new ProxyHeaderTarget()],
    "message-move" => [MessageTargets.Move],
    "message-chat" => [MessageTargets.Chat],
    "message-tree" => [MessageTargets.Tree],
    "all" => [() => new FrameDecoderTarget(), () => new PacketReaderTarget(), () => new ProxyHeaderTarget(), MessageTargets.Move, MessageTargets.Chat, MessageTargets.Tree],
    _ => throw new ArgumentException($"unknown target '{options.Target}' (decoder, reader, proxy, message-move, message-chat, message-tree or all)"),
};

if (options.Guided)
{
    GuidedFuzzing.Run(factories.Single());
    return 0;
}

var targets = factories.Select(create => create()).ToArray();

if (options.Replay is { } replay)
{
    foreach (var target in targets)
    {
        var outcome = target.Run(replay);
        Console.WriteLine($"{target.Name}: {outcome.Failure ?? "held"} (allocated {outcome.Allocated} B, documented {outcome.AllocationAllowed} B)");
    }

    return 0;
}

var failed = false;
foreach (var target in targets)
{
    var report = FuzzEngine.Run(target, options.Cases, options.Seed, options.WarmUpCases);
    Console.WriteLine(report);
    foreach (var failure in report.Failures)
    {
        Console.WriteLine($"  {failure}");
    }

    failed |= report.Failed > 0;
}

return failed ? 1 : 0;
