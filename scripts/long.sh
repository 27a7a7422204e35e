#!/usr/bin/env bash
# Runs the long forms of Berth's reliability checks, writes their results as result files (berth-result/1) under
# docs/data/reliability/ and re-renders docs/RELIABILITY.md's tables from them (bash scripts/render-docs.sh):
#   - every test named in scripts/long-promises.tsv, with BERTH_LONG_ATTACKS=1 (the hostile attacks and the memory
#     rounds at full size)                                          -> long-tests.json
#   - the fuzz runner, 1,000,000 cases per target, seed 1            -> long-fuzz.json
#   - coverage-guided fuzzing of each target (scripts/fuzz-guided.sh, 600 s each)   -> long-fuzz-guided-TARGET.json
#   - berth soak --duration 10m                                      -> long-soak.json (raw soak.json and chart in artifacts/long)
#   - the table of promises, each with its last result               -> promises.json
#
#   bash scripts/long.sh            the long forms (about an hour on 2 cores; nothing else should run beside it)
#   bash scripts/long.sh --smoke    the short forms: 10,000 fuzz cases, 20 s of guided fuzzing, a 20 s soak, short attacks
#   bash scripts/long.sh [--smoke] --only STEP[,STEP]   only these steps (tests, fuzz, guided, soak); the table of
#                                   promises is rebuilt from every result file, the others' as an earlier run left them
#
# Each result file records when its step started, the commit, the machine, the load at start, the CPU other processes
# used over the step and the command. Exits non-zero when any step failed; the result files are written either way.
# Needs python3 (scripts/long_results.py writes the files) besides what scripts/setup.sh --tests installs.
set -uo pipefail
cd "$(dirname "$0")/.."

smoke=0
only=tests,fuzz,guided,soak
arguments="$*"
while [ $# -gt 0 ]; do
    case "$1" in
        --smoke) smoke=1 ;;
        --only) only=${2:?--only needs a list of steps}; shift ;;
        *) echo "usage: long.sh [--smoke] [--only tests,fuzz,guided,soak]" >&2; exit 2 ;;
    esac
    shift
done
wanted() { [[ ",$only," == *",$1,"* ]]; }

if [ "$smoke" -eq 1 ]; then
    long_attacks=0 cases=10000 guided_seconds=20 soak_args=(--duration 20s --max-growth 2)
else
    long_attacks=1 cases=1000000 guided_seconds=600 soak_args=(--duration 10m)
fi

data=docs/data/reliability
work=artifacts/long
results="python3 scripts/long_results.py"
rm -rf "$work"
mkdir -p "$work" "$data"
# Every process a step starts must be a waited-for child of this shell, so that its CPU counts as the step's own:
# no build server or node left behind.
export MSBUILDDISABLENODEREUSE=1 DOTNET_CLI_USE_MSBUILD_SERVER=0 UseSharedCompilation=false

$results run-start "$work/run.state" "bash scripts/long.sh${arguments:+ $arguments}"

for project in tests/Berth.Tests tests/Berth.Fuzz src/Berth.Cli; do
    dotnet build "$project" -c Release >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; exit 1; }
done

failed=0
# step NAME COMMAND -- runs the rest of the line as the step NAME, its output into artifacts/long/NAME.log; COMMAND is
# how the step's result file names what ran.
step() {
    local name=$1 command=$2; shift 2
    echo "== $name: $command"
    $results step-start "$work/$name.state" "$work/run.state" "$command"
    "$@" >"$work/$name.log" 2>&1
    local status=$?
    $results step-end "$work/$name.state"
    if [ "$status" -ne 0 ]; then
        tail -n 30 "$work/$name.log"
        echo "$name: exit code $status"
        failed=1
    fi
    return 0
}

# The tests of the table of promises: one filter over every name in it.
filter=$(grep -v '^#' scripts/long-promises.tsv | awk -F'\t' '$2 == "tests" { sub(/\*$/, "", $3); print "FullyQualifiedName~" $3 }' \
    | sort -u | paste -sd'|')
tests_command="BERTH_LONG_ATTACKS=$long_attacks dotnet test tests/Berth.Tests -c Release --filter '$filter'"
if wanted tests; then
    step tests "$tests_command" env BERTH_LONG_ATTACKS="$long_attacks" dotnet test tests/Berth.Tests -c Release --no-build \
        --filter "$filter" --logger "trx;LogFileName=long.trx" --results-directory "$work/trx"
    $results tests "$work/trx/long.trx" "$data/long-tests.json" "$work/tests.state" || failed=1
fi

fuzz_command="dotnet run -c Release --project tests/Berth.Fuzz -- --cases $cases --seed 1"
if wanted fuzz; then
    step fuzz "$fuzz_command" dotnet run -c Release --no-build --project tests/Berth.Fuzz -- --cases "$cases" --seed 1
    $results fuzz "$work/fuzz.log" "$data/long-fuzz.json" "$work/fuzz.state" || failed=1
fi

wanted guided && for target in decoder reader; do
    step "guided-$target" "bash scripts/fuzz-guided.sh $target $guided_seconds" \
        bash scripts/fuzz-guided.sh "$target" "$guided_seconds"
    $results guided "$target" "artifacts/fuzz/$target/findings/default/fuzzer_stats" "$data/long-fuzz-guided-$target.json" \
        "$work/guided-$target.state" || failed=1
done

soak_command="dotnet run -c Release --project src/Berth.Cli -- soak ${soak_args[*]}"
wanted soak && step soak "$soak_command" dotnet run -c Release --no-build --project src/Berth.Cli -- soak "${soak_args[@]}" \
    --output "$work/soak" --data "$data/long-soak.json"

$results step-end "$work/run.state"
$results promises scripts/long-promises.tsv "$data" "$data/promises.json" "$work/run.state" || failed=1

bash scripts/render-docs.sh >"$work/render.log" 2>&1 || { tail -n 30 "$work/render.log"; failed=1; }
echo "results in $data, rendered into docs/ (review and commit both)"
exit "$failed"
