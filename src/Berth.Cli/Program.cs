using Berth.Cli;

return await CommandLine.RunAsync(args);
