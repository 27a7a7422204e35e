#!/usr/bin/env bash
# Coverage-guided fuzzing of one target of tests/Berth.Fuzz with AFL++ and SharpFuzz.
#   bash scripts/fuzz-guided.sh decoder|reader|proxy [SECONDS]     (default 600 s)
# Publishes the runner to artifacts/fuzz/TARGET, instruments its Berth.dll, starts from the corpus in
# tests/Berth.Fuzz/Corpus/TARGET and prints AFL++'s figures. Exits non-zero when AFL++ saved a crash or a hang
# (inputs under artifacts/fuzz/TARGET/findings/default/crashes and hangs).
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: fuzz-guided.sh decoder|reader|proxy [SECONDS]}
seconds=${2:-600}
out=artifacts/fuzz/$target

if ! command -v afl-fuzz >/dev/null; then
    apt-get install -y afl++ >/dev/null
fi

rm -rf "$out"
mkdir -p "$out"
dotnet tool install SharpFuzz.CommandLine --version 2.3.0 --tool-path "$out/tools" >/dev/null
dotnet publish tests/Berth.Fuzz -c Release -o "$out/bin" >/dev/null
"$out/tools/sharpfuzz" "$out/bin/Berth.dll"

# AFL++ cannot see SharpFuzz's instrumentation in the dotnet host, hence AFL_SKIP_BIN_CHECK; the machine is shared,
# hence AFL_SKIP_CPUFREQ; timeout stops the run, so status 124 is the normal end.
status=0
AFL_SKIP_BIN_CHECK=1 AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
    timeout "$seconds" afl-fuzz -i "tests/Berth.Fuzz/Corpus/$target" -o "$out/findings" -t 5000 -m none \
    -- dotnet "$out/bin/Berth.Fuzz.dll" --target "$target" --afl >"$out/afl.log" 2>&1 || status=$?
if [ "$status" -ne 124 ] && [ "$status" -ne 0 ]; then
    tail -n 30 "$out/afl.log"
    exit "$status"
fi

stats=$out/findings/default/fuzzer_stats
grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|edges_found|saved_crashes|saved_hangs) ' "$stats"
crashes=$(sed -n 's/^saved_crashes *: *//p' "$stats")
hangs=$(sed -n 's/^saved_hangs *: *//p' "$stats")
[ "$crashes" -eq 0 ] && [ "$hangs" -eq 0 ]
