using BenchmarkDotNet.Running;
using Berth.Benchmarks.Messages;

if (args is [CodecJitWarmup.Argument])
{
    CodecJitWarmup.Run();
    return;
}

BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
