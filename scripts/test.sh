#!/usr/bin/env bash
# Builds everything, runs every test project and the benchmark smoke runs, and ends with one line
# "N passed, N failed". Exits non-zero when anything fails.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || exit 1

results=$(mktemp -d)
dotnet test Berth.slnx -c Release --logger "trx" --results-directory "$results" 2>&1 | tee "$results/test.log"
test_status=${PIPESTATUS[0]}

passed=0
failed=0
for trx in "$results"/*.trx; do
    [ -e "$trx" ] || continue
    counters=$(grep -o '<Counters [^>]*>' "$trx")
    p=$(sed -n 's/.* passed="\([0-9]*\)".*/\1/p' <<<"$counters")
    f=$(sed -n 's/.* failed="\([0-9]*\)".*/\1/p' <<<"$counters")
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
done
if [ "$test_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "dotnet test exited $test_status without a failed test (build or runner error)"
    failed=$((failed + 1))
fi

# Smoke runs: each counts as one check; they prove the benchmarks still build and run, never how fast.
smoke() {
    local name=$1; shift
    if "$@" >"$results/smoke-$name.log" 2>&1; then
        echo "smoke $name: ok"
        passed=$((passed + 1))
    else
        echo "smoke $name: FAILED (log follows)"
        tail -n 40 "$results/smoke-$name.log"
        failed=$((failed + 1))
    fi
}
smoke benchmarks dotnet run -c Release --project bench/Berth.Benchmarks -- --filter '*' --job dry --inProcess \
    --exporters json --artifacts "$results/bdn"
smoke report dotnet run -c Release --project bench/Berth.Report -- --results "$results/bdn/results" \
    --output "$results/report/PERFORMANCE.md" --charts "$results/report/charts" --command dry
smoke java bash bench/java/run.sh --smoke
# 20 s is too short to judge memory (RSS still climbs while the attack mix first fills its buffers): the smoke holds
# the witness and the server to account and lets RSS double; the documented long run applies the 1.2x rule.
smoke soak dotnet run -c Release --project src/Berth.Cli -- soak --duration 20s --max-growth 2 --output "$results/soak"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
