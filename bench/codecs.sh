#!/usr/bin/env bash
# The message codecs side by side: the generated contract, the same fields by hand on PacketWriter/PacketReader,
# Google.Protobuf and MemoryPack (and the last two through their Berth codecs), serialize + deserialize of the
# five-field struct and of the string-and-array message (bench/Berth.Benchmarks/Messages), with allocation per
# operation. Each run is one BenchmarkDotNet process over every method of both classes, and the runs follow one
# another, so the methods interleave at run level; the result file has each method's median and min-max over the runs
# and the generated code's targets judged on per-run ratios (bench/Berth.Report/CodecComparison.cs).
#
#   bash bench/codecs.sh                                            3 runs into artifacts/codecs/codecs.json
#                                                                   and its page, artifacts/codecs/codecs.html
#   bash bench/codecs.sh --rounds 5 --data docs/data/messages/codecs.json
#   bash bench/codecs.sh --rounds 1 --dry --data /tmp/codecs.json   BenchmarkDotNet's dry job: proves the pipeline, not speed
#   bash bench/codecs.sh --html /tmp/codecs.html                    the HTML page elsewhere (never into docs/: the page
#                                                                   is a view of the data file, not data)
#
# The job (10 warm-up and 10 measured iterations of 50 ms, one launch) keeps a run of the 15 methods, with its
# BenchmarkDotNet build, to two minutes or so on 2 quiet cores, so 3 runs take about 6 minutes.
#
# Why the job settles the tiered JIT first, the same way for every method: in one quiet run (57cb66a, run 2 of 3) the
# generated string-and-array method stayed in its first, unoptimized code through BenchmarkDotNet's pilot and all
# 3 warm-up iterations (about 300 ns an operation) and reached its optimized code in the 5th measured iteration, so
# that run's mean was 146 ns where the other two were 57 ns. The runtime promotes a method only after 30 calls and a
# 100 ms pause in new compilation (DOTNET_TC_CallCountingDelayMs), and a method with many first-time callees keeps
# restarting that pause. The pause is set to 0 for every method, so promotion follows the call counts alone (dynamic
# PGO stays on, as a user's process has it), and 10 warm-up iterations (500 ms) leave room for the background
# compilations before anything is measured.
#
# Why the job fixes the GC's first-generation budget (DOTNET_GCgen0size, 64 MiB): with the runtime's own budget, each
# BenchmarkDotNet process of an allocating method settled in one of two speeds, the slower about half again as slow,
# and which one was a draw per process. In four single-launch processes per method of the string-and-array message
# (5cd0caf), the hand-written, generated and MemoryPack methods each drew the slow speed in one or two of the four,
# with dynamic PGO off as well; with the budget fixed, all twelve processes ran at the fast speed, every method within
# a few percent of itself. A run's ratio then compared two draws, not two codecs. Every method gets the same budget.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
data=artifacts/codecs/codecs.json
html=artifacts/codecs/codecs.html
job=(--launchCount 1 --warmupCount 10 --iterationCount 10 --iterationTime 50 --envVars DOTNET_TC_CallCountingDelayMs:0 DOTNET_GCgen0size:0x4000000)
job_text="1 launch, 10 warm-up and 10 measured iterations of 50 ms per method, DOTNET_TC_CallCountingDelayMs=0 so every method reaches its optimized code before it is measured, DOTNET_GCgen0size=0x4000000 so every process has the same first-generation budget; chosen so 3 runs take about 6 minutes on 2 quiet cores"
command="bash bench/codecs.sh${*:+$(printf ' %q' "$@")}"
while (($#)); do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        --html) html="$2"; shift 2 ;;
        --dry) job=(--job dry); job_text="BenchmarkDotNet's dry job (one iteration: proves the pipeline, not speed)"; shift ;;
        *) echo "codecs: unknown option $1 (see the header of bench/codecs.sh)" >&2; exit 2 ;;
    esac
done

work=artifacts/codecs
dotnet build bench/Berth.Report -c Release -nologo -v quiet > /dev/null
report=bench/Berth.Report/bin/Release/net10.0/Berth.Report.dll
rm -rf "$work/run"
mkdir -p "$work/run"
# Every run is a child of `measure`, so its CPU counts as the run's own and everything else as other work.
ROUNDS="$rounds" WORK="$work/run" dotnet "$report" measure --out "$work/run/run.json" --command "$command" -- bash -c '
    set -euo pipefail
    for round in $(seq "$ROUNDS"); do
        echo "run $round of $ROUNDS"
        dotnet run -c Release --project bench/Berth.Benchmarks --no-build -- \
            --filter "*FixedMessageBenchmarks*" "*StringArrayMessageBenchmarks*" "$@" \
            --exporters json --artifacts "$WORK/$round" > "$WORK/$round.log"
    done' runs "${job[@]}"

results=()
for round in $(seq "$rounds"); do results+=(--results "$work/run/$round/results"); done
dotnet "$report" codecs --run "$work/run/run.json" "${results[@]}" --data "$data" \
    --note "$rounds run(s), each one BenchmarkDotNet process over every method of FixedMessageBenchmarks and StringArrayMessageBenchmarks ($job_text); times are BenchmarkDotNet's mean per run, allocation its MemoryDiagnoser's bytes per operation." \
    --note "Generated on the five-field struct is MessageWriting.Write and MessageReading.Read, the entries at the level of MemoryPack's Serialize and Deserialize (one copy each way for this struct); on the string-and-array message it is the contract's Write and Read on a PacketWriter and a PacketReader." \
    --note "HandWritten is the same fields on PacketWriter/PacketReader (the string-and-array message's ints as one WriteElements and one ReadElements; every string-and-array method returns the message it read, so no method's message can live on the stack); Protobuf and MemoryPack call each library directly on the same buffer writer; ProtobufCodec and MemoryPackCodec go through Berth.Protobuf and Berth.MemoryPack as a connection does; GeneratedView reads the name as a Utf8Field."
# The page is the result file seen through the report model berth bench writes its pages with (src/Berth.Results/Reports).
dotnet build bench/Berth.Figures -c Release -nologo -v quiet > /dev/null
mkdir -p "$(dirname "$html")"
dotnet bench/Berth.Figures/bin/Release/net10.0/Berth.Figures.dll html "$data" "$html" "Message codecs: generated, hand-written, Google.Protobuf and MemoryPack"
