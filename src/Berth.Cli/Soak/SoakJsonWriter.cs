using System.Text.Json;

namespace Berth.Cli.Soak;

/// <summary>Writes a soak's samples, rounds, attack counts and verdict as JSON.</summary>
internal static class SoakJsonWriter
{
    public static void Write(string path, SoakResult result)
    {
        using var stream = File.Create(path);
        using var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true });
        var verdict = result.Verdict;
        json.WriteStartObject();
        json.WriteString("command", "berth soak");
        json.WriteNumber("durationSeconds", result.Settings.Duration.TotalSeconds);
        json.WriteNumber("warmUpSeconds", result.Settings.WarmUp.TotalSeconds);
        json.WriteNumber("connections", result.Settings.Connections);
        json.WriteNumber("ratePerConnection", result.Settings.Rate);
        json.WriteBoolean("hostile", result.Settings.Hostile);
        json.WriteBoolean("sharedArrayPool", result.Settings.SharedArrayPool);
        json.WriteNumber("processorCount", Environment.ProcessorCount);
        json.WriteStartObject("verdict");
        json.WriteBoolean("passed", verdict.Passed);
        json.WriteNumber("baselineResidentBytes", verdict.BaselineResidentBytes);
        json.WriteNumber("finalResidentBytes", verdict.FinalResidentBytes);
        json.WriteNumber("maxGrowth", result.Settings.MaxGrowth);
        json.WriteStartArray("failures");
        foreach (var failure in verdict.Failures)
        {
            json.WriteStringValue(failure);
        }

        json.WriteEndArray();
        json.WriteEndObject();
        json.WriteNumber("witnessFrames", result.WitnessFrames);
        json.WriteNumber("witnessLost", result.WitnessLost);
        json.WriteNumber("witnessCorrupted", result.WitnessCorrupted);
        json.WriteNumber("loadErrors", result.LoadErrors);
        json.WriteNumber("churned", result.Churned);
        json.WriteNumber("churnFailures", result.ChurnFailures);
        json.WriteNumber("pooledBuffersOutstanding", result.PooledBuffersOutstanding);
        json.WriteStartObject("attacks");
        foreach (var (name, count) in result.Attacks.OrderBy(a => a.Key, StringComparer.Ordinal))
        {
            json.WriteStartObject(name);
            json.WriteNumber("runs", count.Runs);
            json.WriteNumber("held", count.Held);
            json.WriteEndObject();
        }

        json.WriteEndObject();
        json.WriteStartArray("churnRounds");
        foreach (var round in result.Rounds)
        {
            json.WriteStartObject();
            json.WriteNumber("round", round.Round);
            json.WriteNumber("resets", round.Resets);
            json.WriteNumber("residentBytes", round.ResidentBytes);
            json.WriteNumber("gcHeapBytes", round.GcHeapBytes);
            json.WriteNumber("gcCommittedBytes", round.GcCommittedBytes);
            json.WriteNumber("pooledBuffersOutstanding", round.PooledBuffersOutstanding);
            json.WriteEndObject();
        }

        json.WriteEndArray();
        json.WritePropertyName("settled");
        WriteSample(json, result.Settled);
        json.WritePropertyName("afterAggressiveGc");
        WriteSample(json, result.AfterAggressiveGc);
        json.WriteStartArray("samples");
        foreach (var sample in result.Samples)
        {
            WriteSample(json, sample);
        }

        json.WriteEndArray();
        json.WriteEndObject();
    }

    private static void WriteSample(Utf8JsonWriter json, SoakSample sample)
    {
        json.WriteStartObject();
        json.WriteNumber("second", sample.Second);
        json.WriteString("phase", sample.Phase);
        json.WriteNumber("residentBytes", sample.ResidentBytes);
        json.WriteNumber("gcHeapBytes", sample.GcHeapBytes);
        json.WriteNumber("gcCommittedBytes", sample.GcCommittedBytes);
        json.WriteNumber("allocatedBytes", sample.AllocatedBytes);
        json.WriteNumber("handles", sample.Handles);
        json.WriteNumber("threads", sample.Threads);
        json.WriteNumber("connections", sample.Connections);
        json.WriteNumber("pooledBuffersOutstanding", sample.PooledBuffersOutstanding);
        json.WriteNumber("echoesPerSecond", sample.EchoesPerSecond);
        json.WriteNumber("witnessFrames", sample.WitnessFrames);
        json.WriteNumber("witnessP99Microseconds", sample.WitnessP99Microseconds);
        json.WriteEndObject();
    }
}
