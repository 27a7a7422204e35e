#!/usr/bin/env bash
# Regenerates docs/PERFORMANCE.md, its result file docs/data/bench/performance.json and docs/charts/*.svg: runs
# the BenchmarkDotNet suite and the Java programs under `Berth.Report measure`, which records the run's provenance
# (date, commit, machine, load at start, the other processes' CPU share over the run), then turns their output into
# the result file and the report, whose tables are generated blocks over it (docs/RESULTS.md).
#
#   bash scripts/report.sh                      full run of every benchmark class (tens of minutes)
#   bash scripts/report.sh --filter '*Lock*'    only the matching classes (repeatable)
#   bash scripts/report.sh --quick              seconds-per-case run into artifacts/report/quick/,
#                                               leaving docs/ untouched; proves the pipeline, not speed
#   bash scripts/report.sh --report-only        rewrite the report from the last run's outputs in
#                                               artifacts/report/ without measuring again
#   --no-java   skip the Java programs          --output DIR   write PERFORMANCE.md, charts/ and data/ there
set -euo pipefail
cd "$(dirname "$0")/.."
invocation="bash scripts/report.sh${*:+$(printf ' %q' "$@")}"

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
report=bench/Berth.Report/bin/Release/net10.0/Berth.Report.dll
if $measure; then
    rm -rf "$work/bdn" "$work/java"
    mkdir -p "$work/bdn" "$work/java"
    echo "dotnet run -c Release --project bench/Berth.Benchmarks -- --filter ${filters[*]} ${job[*]} --exporters json" >"$work/command.txt"
    # Everything measured runs as a child of `measure`, so its CPU counts as the run's own and the rest as other work.
    BDN_LOG="$work/bdn.log" JAVA="$java" JAVA_ARGS="${java_args[*]}" JAVA_JSON="$work/java/native-memory.json" JAVA_LOG="$work/java.log" \
    dotnet "$report" measure --out "$work/run.json" --command "$invocation" -- bash -c '
        set -euo pipefail
        dotnet run -c Release --project bench/Berth.Benchmarks --no-build -- "$@" | tee "$BDN_LOG"
        if [ "$JAVA" = true ]; then
            bash bench/java/run.sh $JAVA_ARGS --json "$JAVA_JSON" | tee "$JAVA_LOG"
        fi' measured --filter "${filters[@]}" "${job[@]}" --exporters json --artifacts "$work/bdn"
    echo "Toolchains: $(dotnet --version | sed 's/^/.NET SDK /'); $(gcc --version | head -n1) building bench/native/interop with -O3; $(java -version 2>&1 | head -n1)." >"$work/notes.txt"
fi
[ -f "$work/run.json" ] || { echo "report: no earlier run in $work; run without --report-only first" >&2; exit 1; }

notes=()
while IFS= read -r line; do notes+=(--note "$line"); done <"$work/notes.txt"
java_json="$work/java/native-memory.json"
mkdir -p "$output"
dotnet "$report" \
    --results "$work/bdn/results" \
    --java "$java_json" \
    --run "$work/run.json" \
    --data "$output/data/bench/performance.json" \
    --output "$output/PERFORMANCE.md" \
    --charts "$output/charts" \
    --command "$(cat "$work/command.txt")" \
    "${notes[@]}"
