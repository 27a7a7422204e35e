#!/usr/bin/env bash
# Pipelined bursts through this build's `berth serve` and through the previous engine's (commit 1d6416c: a 64 KiB
# receive ring rented per connection up front and kept while idle, handlers on the thread pool), each its own
# process, driven by the same C load generator, interleaved. Shows what receiving only while data is in flight
# costs or saves on traffic that never lets the ring sit idle.
#
#   bash bench/engine-vs-previous.sh                 3 rounds, 1 s warm-up, 4 s measured per cell
#   bash bench/engine-vs-previous.sh --rounds 5
#   bash bench/engine-vs-previous.sh --previous f2b8af0   another commit's engine as the baseline
#   bash bench/engine-vs-previous.sh --data docs/data/tcp/engine-vs-previous.json   also writes a berth-result/1 file
#
# Each round runs every workload as a back-to-back pair (this build, then the previous engine), so a round gives one
# ratio per workload. A workload is "met" when the median of at least 3 rounds' ratios is at least 0.97x and so is
# every round, "within noise" when only the median is, "not met" when the median is not ("< 3 rounds" with fewer).
# Needs a clone with history (the previous engine is built from git into artifacts/previous-engine), gcc and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

previous=1d6416c
rounds=3
warmup=1
duration=4
data=""
command="bash bench/engine-vs-previous.sh $*"
while (($#)); do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --previous) previous="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        *) echo "engine-vs-previous: unknown option $1 (see the header of bench/engine-vs-previous.sh)" >&2; exit 2 ;;
    esac
done

# One build per baseline commit, so a run against another commit never reuses the wrong engine.
cli=$(bash bench/build-previous-engine.sh "$previous")
out=$(dirname "$cli")
bash bench/native/load/build.sh artifacts/compare > /dev/null
dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null

declare -A servers=(
    [current]="dotnet src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll serve --port 0"
    [previous]="dotnet $cli/Berth.Cli.dll serve --port 0"
)
cells=("64 100" "1024 100" "16384 10" "65536 1" "65536 100")
results="$out/results.tsv"
: > "$results"
# The run's provenance (scripts/long_results.py): the servers and the load generator are this shell's children, so
# the CPU they used is what it reaped; everything else over the rounds is the others' share.
state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"

for round in $(seq "$rounds"); do
    for cell in "${cells[@]}"; do
        read -r size connections <<< "$cell"
        for server in current previous; do
            log="$out/$server.log"
            # shellcheck disable=SC2086 # the command line is split on purpose
            ${servers[$server]} > "$log" 2>&1 &
            pid=$!
            port=""
            for _ in $(seq 100); do
                port=$(grep -o 'listening on [0-9.]*:[0-9]*' "$log" | head -1 | sed 's/.*://') && [ -n "$port" ] && break
                sleep 0.1
            done
            line=$(artifacts/compare/berth-load --port "$port" --connections "$connections" --pipeline 16 --size "$size" \
                --warmup "$warmup" --duration "$duration" | grep '^{' || true)
            kill "$pid" 2> /dev/null || true
            wait "$pid" 2> /dev/null || true
            printf '%s\t%s\t%s\t%s\n' "$server" "$size" "$connections" "$line" >> "$results"
            printf '  round %s  %-8s %6s B x %-3s %s\n' "$round" "$server" "$size" "$connections" \
                "$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print("{:,.0f} msg/s, errors {}".format(r["msg_per_s"], r["errors"]))' "$line")"
        done
    done
done

python3 scripts/long_results.py step-end "$state"
python3 - "$results" "$state" "$(git rev-parse "$previous^{commit}")" "$data" <<'EOF'
import json, statistics, sys
sys.path.insert(0, "scripts")
import long_results
results, state, previous, data = sys.argv[1:5]
TARGET, ROUNDS = 0.97, 3
rows = [line.rstrip("\n").split("\t") for line in open(results)]
cells = []
for server, size, connections, line in rows:
    if (size, connections) not in cells:
        cells.append((size, connections))
def rates(server, size, connections):
    return [json.loads(r[3])["msg_per_s"] for r in rows if r[0] == server and r[1] == size and r[2] == connections]
def verdict(ratios):
    if len(ratios) < ROUNDS:
        return "< 3 rounds"
    if statistics.median(ratios) < TARGET:
        return "not met"
    return "met" if min(ratios) >= TARGET else "within noise"
def spread(values):
    return {"min": min(values), "median": statistics.median(values), "max": max(values), "unit": "count"}
table = []
print("\n| workload | this build msg/s (median [min-max]) | previous engine msg/s | ratio per round | median ratio | at least 0.97x |")
print("| --- | ---: | ---: | --- | ---: | --- |")
for size, connections in cells:
    now, before = rates("current", size, connections), rates("previous", size, connections)
    # A round's pair ran back to back: this build's nth run beside the previous engine's nth.
    ratios = [a / b for a, b in zip(now, before)]
    label = (f"{int(size) // 1024} KB" if int(size) >= 1024 else f"{size} B") + f" x {connections}"
    per_round = " ".join(f"{r:.2f}x" for r in ratios)
    table.append([label, spread(now), spread(before), per_round, statistics.median(ratios), verdict(ratios)])
    fmt = lambda v: f"{statistics.median(v):,.0f} [{min(v):,.0f}-{max(v):,.0f}]"
    print(f"| {label} | {fmt(now)} | {fmt(before)} | {per_round} | {statistics.median(ratios):.2f}x | {verdict(ratios)} |")
if data:
    long_results.write_json(data, {
        "schema": long_results.SCHEMA,
        "provenance": long_results.provenance(state),
        "tables": {"engine-vs-previous": {
            "title": f"This build against the engine of {previous[:7]}: pipelined bursts (pipeline 16), one C load generator",
            "columns": [{"name": "workload", "format": "text"}, {"name": "this build msg/s", "format": "range"},
                        {"name": "previous msg/s", "format": "range"}, {"name": "ratio per round", "format": "text"},
                        {"name": "median ratio", "format": "ratio"}, {"name": "at least 0.97x", "format": "verdict"}],
            "rows": table,
            "notes": ["Each round runs a workload on this build, then at once on the previous engine; a round's ratio is that pair's."],
        }},
    })
    print(f"wrote {data}")
EOF
