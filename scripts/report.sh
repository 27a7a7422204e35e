#!/usr/bin/env bash
# Regenerates docs/PERFORMANCE.md and docs/charts/*.svg: runs the BenchmarkDotNet suite and the
# Java programs, then turns their output (plus any end-to-end tables dropped into
# artifacts/report/tables/*.json by `berth bench --json` / `berth zmq bench --json`) into the report.
#
#   bash scripts/report.sh                      full run of every benchmark class (tens of minutes)
#   bash scripts/report.sh --filter '*Lock*'    only the matching classes (repeatable)
#   bash scripts/report.sh --quick              seconds-per-case run into artifacts/report/quick/,
#                                               leaving docs/ untouched; proves the pipeline, not speed
#   bash scripts/report.sh --report-only        rewrite the report from the last run's outputs in
#                                               artifacts/report/ without measuring again
#   --no-java   skip the Java programs          --output DIR   write PERFORMANCE.md and charts/ there
set -euo pipefail
cd "$(dirname "$0")/.."

filters=()
quick=false
java=true
measure=true
output=""
while (($#)); do
    case "$1" in
        --filter) filters+=("$2"); shift 2 ;;
        --quick) quick=true; shift ;;
        --no-java) java=false; shift ;;
        --report-only) measure=false; shift ;;
        --output) output="$2"; shift 2 ;;
        *) echo "report: unknown option $1 (see the header of scripts/report.sh)" >&2; exit 2 ;;
    esac
done
((${#filters[@]})) || filters=('*')

if $quick; then
    job=(--warmupCount 1 --iterationCount 3 --iterationTime 25)
    java_args=(--smoke)
    output=${output:-artifacts/report/quick}
else
    # Fewer, shorter iterations than BenchmarkDotNet's default job keep a full run of every class
    # within half an hour on a 2-core machine; the error column shows what that costs in precision.
    job=(--warmupCount 3 --iterationCount 12 --iterationTime 150)
    java_args=()
    output=${output:-docs}
fi

# The suite's native interop library needs gcc, and the comparison needs Java 17.
bash scripts/setup.sh --tests

# The command and the run's conditions are kept beside the outputs so --report-only can describe
# the run it renders.
work=artifacts/report
dotnet build bench/Berth.Report -c Release -nologo -v quiet
if $measure; then
    rm -rf "$work/bdn" "$work/java"
    mkdir -p "$work/bdn" "$work/java" "$work/tables"
    load_before=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "dotnet run -c Release --project bench/Berth.Benchmarks -- --filter ${filters[*]} ${job[*]} --exporters json" >"$work/command.txt"
    dotnet run -c Release --project bench/Berth.Benchmarks --no-build -- \
        --filter "${filters[@]}" "${job[@]}" --exporters json --artifacts "$work/bdn" | tee "$work/bdn.log"
    if $java; then
        bash bench/java/run.sh "${java_args[@]}" --json "$work/java/native-memory.json" | tee "$work/java.log"
    fi
    load_after=$(cut -d' ' -f1-3 /proc/loadavg)
    {
        echo "Run conditions: $(nproc) logical cores; load average (1/5/15 min) $load_before before the run and $load_after after it. A load above about 0.3 means other work shared the cores during the run, which widens the error column and inflates the contended-lock and queue rows most."
        echo "Toolchains: $(dotnet --version | sed 's/^/.NET SDK /'); $(gcc --version | head -n1) building bench/native/interop with -O3; $(java -version 2>&1 | head -n1)."
    } >"$work/notes.txt"
fi
[ -f "$work/command.txt" ] || { echo "report: no earlier run in $work; run without --report-only first" >&2; exit 1; }

notes=()
while IFS= read -r line; do notes+=(--note "$line"); done <"$work/notes.txt"
java_json="$work/java/native-memory.json"
mkdir -p "$output"
dotnet run -c Release --project bench/Berth.Report --no-build -- \
    --results "$work/bdn/results" \
    --java "$java_json" \
    --tables "$work/tables" \
    --findings docs/performance/findings.md \
    --output "$output/PERFORMANCE.md" \
    --charts "$output/charts" \
    --command "$(cat "$work/command.txt")" \
    "${notes[@]}"
